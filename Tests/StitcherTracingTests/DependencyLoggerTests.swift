import Foundation
import InMemoryLogging
import Logging
import Stitcher
import StitcherTesting
import StitcherTracing
import Testing

// `DependencyLogger`: every instantiation at trace level with its metadata, slow factories
// at warning, failures at debug, checked with swift-log's in-memory handler.

private final class Database: @unchecked Sendable {}
private final class Service: @unchecked Sendable { init(database: Database) {} }
private final class Slow: @unchecked Sendable {
    init() { Thread.sleep(forTimeInterval: 0.03) }
}
private struct Unreachable: Error {}

private func logger(_ handler: InMemoryLogHandler, level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: "stitcher.tests", factory: { _ in handler })
    logger.logLevel = level
    return logger
}

@Suite(.isolatedDependencyGraph)
struct DependencyLoggerTests {
    @Test func eachInstantiationIsLoggedAtTraceLevelWithItsParent() throws {
        let handler = InMemoryLogHandler()
        DependencyGraph.currentContext.observer = DependencyLogger(logger: logger(handler), slowFactoryThreshold: .seconds(60))
        DependencyGraph.activate(
            DependencyContainer(name: "Storage") {
                Dependency { Database() }.scope(.singleton)
                Dependency(autowiring: Service.init)
            })
        _ = try DependencyGraph.inject(byType: Service.self)
        let entries = handler.entries
        #expect(entries.map { $0.metadata["stitcher.container"] } == ["Storage", "Storage"])
        #expect(entries.map(\.level) == [.trace, .trace])
        #expect(entries.map(\.message.description) == ["Instantiated Type[Database]", "Instantiated Type[Service]"])
        #expect(entries[0].metadata["stitcher.parent"] == "Type[Service]")
        #expect(entries[0].metadata["stitcher.scope"] == "singleton")
        #expect(entries[1].metadata["stitcher.parent"] == nil)
        #expect(entries[1].metadata["stitcher.scope"] == "shared")
        for entry in entries {
            let duration = try #require(entry.metadata["stitcher.duration_ms"].flatMap { Double("\($0)") })
            #expect(duration >= 0)
        }
    }

    @Test func aChildGraphLogsWhatItBuilds() throws {
        let handler = InMemoryLogHandler()
        DependencyGraph.activate(DependencyContainer(name: "App") { Dependency { Database() }.scope(.singleton) })
        let session = DependencyGraph.currentContext.child()
        session.observer = DependencyLogger(logger: logger(handler), slowFactoryThreshold: .seconds(60))
        session.activate(DependencyContainer(name: "Session") { Dependency(autowiring: Service.init) })
        _ = try session.inject(byType: Service.self)
        // The app's singleton is built (and reported) in the app; the session's own here.
        #expect(handler.entries.map(\.message.description) == ["Instantiated Type[Service]"])
        #expect(handler.entries.first?.metadata["stitcher.container"] == "Session")
    }

    @Test func aSlowFactoryIsLoggedAtWarningLevel() throws {
        let handler = InMemoryLogHandler()
        // At info level the trace lines are not written; the warning is.
        DependencyGraph.currentContext.observer = DependencyLogger(
            logger: logger(handler, level: .info), slowFactoryThreshold: .milliseconds(10))
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Slow() }.scope(.instance)
                Dependency { Database() }.scope(.instance)
            })
        _ = try DependencyGraph.inject(byType: Slow.self)
        _ = try DependencyGraph.inject(byType: Database.self)
        let entries = handler.entries
        #expect(entries.count == 1)
        #expect(entries.first?.level == .warning)
        #expect(entries.first?.message.description.hasPrefix("Slow factory: Type[Slow] took ") == true)
        #expect(entries.first?.message.description.hasSuffix(" ms (threshold 10.0 ms)") == true)
    }

    @Test func aFailureIsLoggedAtDebugLevel() throws {
        let handler = InMemoryLogHandler()
        DependencyGraph.currentContext.observer = DependencyLogger(logger: logger(handler, level: .debug))
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Database in throw Unreachable() }
            })
        #expect(throws: InjectionError.self) { try DependencyGraph.inject(byType: Database.self) }
        let entries = handler.entries
        #expect(entries.map(\.level) == [.debug])
        #expect(entries.first?.message.description == "Injecting Type[Database] failed")
        #expect(entries.first?.metadata["stitcher.error"].map { "\($0)".contains("Unreachable") } == true)
    }

    @Test func anObserverGroupLogsAndRecordsAtOnce() throws {
        let handler = InMemoryLogHandler()
        let recorder = DependencyEdgeRecorder()
        DependencyGraph.currentContext.observer = DependencyGraphObserverGroup(recorder, DependencyLogger(logger: logger(handler)))
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Database() }.scope(.singleton)
                Dependency { Service(database: try DependencyGraph.inject()) }
            })
        _ = try DependencyGraph.inject(byType: Service.self)
        #expect(handler.entries.count == 2)
        #expect(recorder.edges.map(\.description) == ["Type[Service] -> Type[Database]"])
        // verify() finds the group's recorder: the observed edge is in the picture.
        #expect(DependencyGraph.export(.mermaid).contains("n1 -.-> n0"))
    }
}
