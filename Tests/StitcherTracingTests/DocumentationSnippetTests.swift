import Logging
import Stitcher
import StitcherTesting
import StitcherTracing
import Testing

// The code of the Stitcher catalog's article on observing (`ObservingTheGraph.md`, "Logs
// and traces"), run with assertions (Scripts/check-snippets.sh compiles the Markdown as written).

private final class Database: Sendable {}

@Suite(.isolatedDependencyGraph)
struct TracingDocumentationSnippetTests {
    @Test func observingArticleLogsAndTracesInstantiations() throws {
        var logger = Logger(label: "app.dependencies")
        logger.logLevel = .trace
        DependencyGraph.observer = DependencyGraphObserverGroup(
            DependencyLogger(logger: logger, slowFactoryThreshold: .milliseconds(20)),
            DependencyTracer()  // spans from InstrumentationSystem.tracer
        )
        DependencyGraph.activate(DependencyContainer { Dependency { Database() }.scope(.singleton) })
        #expect(try (DependencyGraph.inject() as Database) === (try DependencyGraph.inject() as Database))
        #expect(DependencyGraph.observer is DependencyGraphObserverGroup)
    }
}
