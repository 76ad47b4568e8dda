import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Stitcher
import StitcherServiceLifecycle
import StitcherTesting
import Testing

// The code of the StitcherServiceLifecycle catalog's landing page
// (`Sources/StitcherServiceLifecycle/StitcherServiceLifecycle.docc`), run with
// assertions and the services it names (Scripts/check-snippets.sh compiles the Markdown as written).

private final class DatabasePool: Service, @unchecked Sendable {
    init() {}
    func run() async throws { try? await gracefulShutdown() }
}

private final class JobQueue: Service, @unchecked Sendable {
    let pool: DatabasePool
    init(pool: DatabasePool) { self.pool = pool }
    func run() async throws { try? await gracefulShutdown() }
}

/// Stands for the HTTP server: starts last, and lets the test end the run.
private final class App: Service, @unchecked Sendable {
    let started: AsyncStream<Void>.Continuation
    init(started: AsyncStream<Void>.Continuation) { self.started = started }
    func run() async throws {
        started.yield()
        try? await gracefulShutdown()
    }
}

@Suite(.isolatedDependencyGraph)
struct LifecycleDocumentationSnippetTests {
    @Test func landingPage() async throws {
        let logger = Logger(label: "snippet")
        let (starts, started) = AsyncStream<Void>.makeStream()
        let app = App(started: started)

        await DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: DatabasePool.init).scope(.singleton)  // a Service
                Dependency(autowiring: JobQueue.init).scope(.singleton)  // a Service using the pool
            })
        let group = DependencyServiceGroup(followedBy: [app], logger: logger)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                for await _ in starts { break }
                trigger.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        let services = try await group.services()
        #expect(services.map(\.name) == ["Type[DatabasePool]", "Type[JobQueue]"])
    }
}
