import Foundation
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Stitcher
import StitcherServiceLifecycle
import StitcherTesting
import Testing

// `DependencyServiceGroup`: a graph's services in dependency order, a cycle refused before
// anything starts, shutdown in reverse order, a failing service.

/// What the services did, in order, and a stream of their starts.
private final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    let starts: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() { (starts, continuation) = AsyncStream.makeStream() }

    func record(_ entry: String) {
        lock.withLock { entries.append(entry) }
        if entry.hasPrefix("start ") { continuation.yield(entry) }
    }

    var all: [String] { lock.withLock { entries } }
    var stops: [String] { all.filter { $0.hasPrefix("stop ") } }
}

/// A service that records its start, waits for graceful shutdown, and records its stop.
private class Recorded: Service, @unchecked Sendable {
    let journal: Journal
    let name: String
    init(_ name: String, _ journal: Journal) {
        self.name = name
        self.journal = journal
    }
    func run() async throws {
        journal.record("start \(name)")
        try? await gracefulShutdown()
        journal.record("stop \(name)")
    }
}

private final class Pool: Recorded, @unchecked Sendable { init(journal: Journal) { super.init("pool", journal) } }
private final class Repository: @unchecked Sendable { init(pool: Pool) {} }
private final class Queue: Recorded, @unchecked Sendable {
    init(repository: Repository, journal: Journal) { super.init("queue", journal) }
}
private final class Mailer: Recorded, @unchecked Sendable { init(journal: Journal) { super.init("mailer", journal) } }
private final class App: Recorded, @unchecked Sendable { init(journal: Journal) { super.init("app", journal) } }
private final class Failing: Service, @unchecked Sendable {
    struct Crashed: Error {}
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
    func run() async throws {
        journal.record("start failing")
        throw Crashed()
    }
}
private final class Left: Recorded, @unchecked Sendable { init(right: Right, journal: Journal) { super.init("left", journal) } }
private final class Right: Recorded, @unchecked Sendable { init(left: Left, journal: Journal) { super.init("right", journal) } }

private let logger = Logger(label: "stitcher.tests.services")

/// Pool, then Queue (through Repository, which is not a service); Mailer's factory injects
/// Queue, an edge seen only while building.
private func serverContainer(_ journal: Journal) -> DependencyContainer {
    DependencyContainer {
        Dependency { journal }.scope(.singleton)
        Dependency {
            Mailer(
                journal: try {
                    _ = try DependencyGraph.inject(byType: Queue.self)
                    return journal
                }())
        }
        .scope(.singleton)
        Dependency(autowiring: Queue.init).scope(.singleton)
        Dependency(autowiring: Repository.init).scope(.singleton)
        Dependency(autowiring: Pool.init).scope(.singleton)
    }
}

@Suite(.isolatedDependencyGraph)
struct DependencyServiceGroupTests {
    @Test func servicesComeAfterWhatTheyDependOn() async throws {
        let journal = Journal()
        await DependencyGraph.activate(serverContainer(journal))
        let services = try await DependencyServiceGroup(logger: logger).services()
        #expect(services.map(\.name) == ["Type[Pool]", "Type[Queue]", "Type[Mailer]"])
        #expect(services.map(\.dependencies) == [[], ["Type[Pool]"], ["Type[Queue]"]])
        // The instances are the graph's singletons.
        #expect(services[1].service as? Queue === (try DependencyGraph.inject(byType: Queue.self)))
    }

    @Test func servicesStopInReverseOrderOnGracefulShutdown() async throws {
        let journal = Journal()
        await DependencyGraph.activate(serverContainer(journal))
        let group = DependencyServiceGroup(followedBy: [App(journal: journal)], gracefulShutdownSignals: [], logger: logger)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var started = 0
                for await _ in journal.starts {
                    started += 1
                    if started == 4 { break }
                }
                trigger.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        #expect(journal.stops == ["stop app", "stop mailer", "stop queue", "stop pool"])
    }

    @Test func aCycleAmongServicesIsAnErrorBeforeAnythingIsBuilt() async throws {
        let journal = Journal()
        let built = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Journal in
                    built.increment()
                    return journal
                }.scope(.singleton)
                Dependency(autowiring: Left.init).scope(.singleton)
                Dependency(autowiring: Right.init).scope(.singleton)
            })
        let error = await #expect(throws: ServiceDependencyError.self) {
            try await DependencyServiceGroup(logger: logger).run()
        }
        #expect(error?.reason == .cycle(["Type[Left]", "Type[Right]", "Type[Left]"]))
        #expect(error?.description.contains("To fix this, break the cycle") == true)
        #expect(built.value == 0 && journal.all.isEmpty)
    }

    @Test func aServiceThatIsNotASingletonIsAnError() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Journal() }.scope(.singleton)
                Dependency(autowiring: Pool.init).scope(.instance)
            })
        let error = await #expect(throws: ServiceDependencyError.self) { try await DependencyServiceGroup(logger: logger).services() }
        #expect(error?.reason == .notASingleton(service: "Type[Pool]", scope: "instance", takesParameters: false))
    }

    @Test func aFailingServiceShutsTheOthersDown() async throws {
        let journal = Journal()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { journal }.scope(.singleton)
                Dependency(autowiring: Pool.init).scope(.singleton)
                Dependency(autowiring: Failing.init).scope(.singleton).dependsOn(Pool.self)
            })
        await #expect(throws: Failing.Crashed.self) {
            try await DependencyServiceGroup(gracefulShutdownSignals: [], logger: logger).run()
        }
        #expect(journal.all.contains("start failing") && journal.stops == ["stop pool"])
    }
}

/// Counts calls from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
