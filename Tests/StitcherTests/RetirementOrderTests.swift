import Foundation
import Testing

@testable import Stitcher

/// What happened, in order, across threads.
private final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    func append(_ event: String) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}

/// A singleton whose release waits until the test lets it finish.
private final class SlowToRelease: @unchecked Sendable {
    let entered: DispatchSemaphore
    let proceed: DispatchSemaphore
    let events: Events

    init(entered: DispatchSemaphore, proceed: DispatchSemaphore, events: Events) {
        (self.entered, self.proceed, self.events) = (entered, proceed, events)
    }

    deinit {
        entered.signal()
        _ = proceed.wait(timeout: .now() + 30)
        events.append("released")
    }
}

/// A singleton whose release deactivates another container of its graph.
private final class DeactivatesOnRelease: @unchecked Sendable {
    let graph: DependencyGraph.Context
    let other: DependencyContainer

    init(graph: DependencyGraph.Context, other: DependencyContainer) { (self.graph, self.other) = (graph, other) }

    deinit { graph.deactivate(other) }
}

private final class Plain: Sendable {}

/// A call that lets instances go (a deactivation, a reset, `releaseInstances()`) returns
/// only once the changes made before it on other threads have released what they replaced:
/// a container deactivated right after another thread's change is not left with instances
/// that change is still releasing.
@Suite struct RetirementOrderTests {
    @Test func aDeactivationReturnsAfterAnEarlierChangeReleasedItsInstances() throws {
        let graph = DependencyGraph.Context.isolated()
        let (entered, proceed, events) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), Events())
        let container = DependencyContainer {
            Dependency { SlowToRelease(entered: entered, proceed: proceed, events: events) }.scope(.singleton)
        }
        graph.activate(container)
        _ = try graph.inject() as SlowToRelease
        let finished = DispatchGroup()
        // The first change releases the singleton, whose deinitializer then waits.
        finished.enter()
        Thread.detachNewThread { [finished] in
            graph.releaseInstances()
            finished.leave()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success)
        // The second change comes after it under the graph's lock, and lets go too.
        finished.enter()
        Thread.detachNewThread { [finished] in
            graph.deactivate(container)
            events.append("deactivated")
            finished.leave()
        }
        // Time for the deactivation to reach its wait; the order is what is checked, and
        // without the wait the deactivation would return first.
        usleep(100_000)
        proceed.signal()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(events.all == ["released", "deactivated"])
        #expect(graph.graph.lock.withLock { graph.graph.retirements.waitsCutShort } == 0)
    }

    @Test func aDeinitializerThatDeactivatesDoesNotWaitForItsOwnRetirement() throws {
        let graph = DependencyGraph.Context.isolated()
        let other = DependencyContainer { Dependency { Plain() }.scope(.singleton) }
        let first = DependencyContainer {
            Dependency { DeactivatesOnRelease(graph: graph, other: other) }.scope(.singleton)
        }
        graph.activate(other)
        graph.activate(first)
        _ = try graph.inject() as DeactivatesOnRelease
        weak let plain = try graph.inject() as Plain
        #expect(plain != nil)
        graph.deactivate(first)
        #expect(!graph.isActive(first))
        #expect(!graph.isActive(other))
        #expect(plain == nil)
        // Had the inner deactivation waited for the outer one's retirement, in which it
        // runs, it would have waited until the limit.
        #expect(graph.graph.lock.withLock { graph.graph.retirements.waitsCutShort } == 0)
    }

    @Test func ticketsAreWaitedForOnlyWhenTakenBefore() {
        var tickets = RetirementTickets()
        let first = tickets.take()
        let bound = tickets.bound
        let second = tickets.take()
        #expect(tickets.isOpen(before: bound))
        tickets.release(first)
        // The second ticket was taken after the bound: a wait for those before it is over
        // while the second is still out.
        #expect(!tickets.isOpen(before: bound))
        #expect(tickets.isOpen(before: tickets.bound))
        tickets.release(second)
        #expect(!tickets.isOpen(before: tickets.bound))
    }
}
