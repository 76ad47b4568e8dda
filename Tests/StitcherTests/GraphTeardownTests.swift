import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Session: @unchecked Sendable { init() {} }

/// Runs `body` on a new thread until `stop` is set; returns a group to wait on.
private func loopOnThread(until stop: Flag, _ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    Thread.detachNewThread {
        while !stop.isOn { body() }
        group.leave()
    }
    return group
}

/// Callbacks that reach a graph after it ended (an invalidation, a managed scope's publisher)
/// find it gone and do nothing, whatever the interleaving.
///
/// Not isolated by a trait: each test opens and closes isolated graphs itself.
struct GraphTeardownTests {
    /// A bounded number of rounds, each opening a graph and closing it while another thread
    /// fires the callback in a loop.
    private let rounds = scaled(2_000)

    @Test func invalidatingAContainerWhileItsIsolatedGraphEnds() {
        let container = DependencyContainer { Dependency { Session() }.scope(.singleton) }
        let stop = Flag(false)
        let invalidator = loopOnThread(until: stop) { container.invalidate() }
        for _ in 0..<rounds {
            DependencyGraph.withIsolatedGraph {
                DependencyGraph.activate(container)
                _ = try? DependencyGraph.inject(byType: Session.self)
            }
        }
        stop.isOn = true
        #expect(invalidator.wait(timeout: .now() + 30) == .success)
    }

    @Test func aTrackedPublisherFiringWhileItsIsolatedGraphEnds() {
        let subject = Unchecked(PassthroughSubject<Void, Never>())
        let container = DependencyContainer { Dependency { Session() }.scope(.singleton) }
            .invalidated(tracking: subject.value)
        let stop = Flag(false)
        let sender = loopOnThread(until: stop) { subject.value.send() }
        for _ in 0..<rounds {
            DependencyGraph.withIsolatedGraph { DependencyGraph.activate(container) }
        }
        stop.isOn = true
        #expect(sender.wait(timeout: .now() + 30) == .success)
    }

    @Test func aManagedScopeFiringWhileItsIsolatedGraphEnds() {
        let subject = Unchecked(PassthroughSubject<Void, Never>())
        // Many registrations in the scope: every send calls each one's callback, so graphs
        // end while one of them is between finding its container and reaching the graph.
        let container = DependencyContainer {
            for index in 0..<200 {
                Dependency { Session() }.named("session-\(index)").scope(.managed(by: subject.value))
            }
        }
        let stop = Flag(false)
        let senders = (0..<2).map { _ in loopOnThread(until: stop) { subject.value.send() } }
        for _ in 0..<rounds / 2 {
            DependencyGraph.withIsolatedGraph {
                DependencyGraph.activate(container)
                _ = try? DependencyGraph.inject(byName: "session-0") as Session
            }
        }
        stop.isOn = true
        for sender in senders { #expect(sender.wait(timeout: .now() + 30) == .success) }
    }

    @Test func aCallbackAfterTheGraphEndedChangesNothingElsewhere() throws {
        // The container stays usable in another graph after a graph it was active in ended
        // with an invalidation in flight.
        let subject = Unchecked(PassthroughSubject<Void, Never>())
        let container = DependencyContainer { Dependency { Session() }.scope(.managed(by: subject.value)) }
        DependencyGraph.withIsolatedGraph { DependencyGraph.activate(container) }
        subject.value.send()
        container.invalidate()
        try DependencyGraph.withIsolatedGraph {
            DependencyGraph.activate(container)
            let first = try DependencyGraph.inject(byType: Session.self)
            #expect(try DependencyGraph.inject(byType: Session.self) === first)
            subject.value.send()
            #expect(try DependencyGraph.inject(byType: Session.self) !== first)
        }
    }
}
