import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Engine: @unchecked Sendable {}
private final class Car: @unchecked Sendable {
    init(_ engine: Engine) {}
}
private final class Session: TeardownAware, @unchecked Sendable {
    func tearDown() throws {}
}
private struct Failure: Error {}

/// Records every event, in order.
private final class EventLog: DependencyGraphObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    private func add(_ line: String) { lock.withLock { lines.append(line) } }

    func didCreate(_ event: DependencyGraphEvent.InstanceCreated) {
        add(
            "created \(event.dependency) \(event.scope) from \(event.parent.map(\.description) ?? "top")"
                + (event.scopeID == nil ? "" : " in scope"))
    }
    func didFail(_ event: DependencyGraphEvent.ResolutionFailed) { add("failed \(event.dependency)") }
    func didOpenScope(_ event: DependencyGraphEvent.Scope) { add("opened depth \(event.depth)") }
    func didCloseScope(_ event: DependencyGraphEvent.Scope) { add("closed \(event.instanceCount)") }
    func didTearDown(_ event: DependencyGraphEvent.Teardown) {
        add("tore down \(event.dependency)" + (event.error == nil ? "" : " with an error"))
    }
}

/// The resolution observer: what it is told, and the edges it records.
@Suite(.isolatedDependencyGraph)
struct ObserverTests {
    @Test func anObserverSeesCreationsWithTheirParentsAndFailures() throws {
        let log = EventLog()
        DependencyGraph.observer = log
        defer { DependencyGraph.observer = nil }
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Engine() }.scope(.instance)
                Dependency { Car(try DependencyGraph.inject()) }.scope(.singleton)
                Dependency { () throws -> Int in throw Failure() }
            })
        _ = try DependencyGraph.inject() as Car
        _ = try DependencyGraph.inject() as Car
        _ = try? DependencyGraph.inject() as Int
        #expect(
            log.all == [
                "created Type[Engine] instance from Type[Car]",
                "created Type[Car] singleton from top",
                "failed Type[Int]",
            ])
    }

    @Test func scopesAndTeardownsAreObserved() throws {
        let log = EventLog()
        DependencyGraph.observer = log
        defer { DependencyGraph.observer = nil }
        DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        try DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as Session
            try DependencyGraph.withScope {}
        }
        #expect(
            log.all == [
                "opened depth 0",
                "created Type[Session] scoped from top in scope",
                "opened depth 1",
                "closed 0",
                "tore down Type[Session]",
                "closed 1",
            ])
    }

    @Test func theEdgeRecorderCountsEdgesAndCreations() throws {
        let recorder = DependencyEdgeRecorder()
        DependencyGraph.observer = recorder
        defer { DependencyGraph.observer = nil }
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Engine() }.scope(.instance)
                Dependency { Car(try DependencyGraph.inject()) }.scope(.instance)
            })
        for _ in 0..<3 { _ = try DependencyGraph.inject() as Car }
        let edge = DependencyEdgeRecorder.Edge(from: .type("Car"), to: .type("Engine"))
        #expect(recorder.edges == [edge])
        #expect(recorder.count(of: edge) == 3)
        #expect(recorder.creations(of: .type("Car")).count == 3)
        #expect(edge.description == "Type[Car] -> Type[Engine]")
    }

    @Test func anotherGraphsObserverHearsNothingOfThisOne() throws {
        let log = EventLog()
        let other = DependencyGraph.Context.isolated()
        other.observer = log
        DependencyGraph.activate(DependencyContainer { Dependency { Engine() } })
        _ = try DependencyGraph.inject() as Engine
        #expect(log.all.isEmpty)
        other.activate(DependencyContainer { Dependency { Engine() } })
        _ = try other.inject() as Engine
        #expect(log.all == ["created Type[Engine] shared from top"])
    }
}
