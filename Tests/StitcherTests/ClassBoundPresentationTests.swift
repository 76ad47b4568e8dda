import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

// A class's instance requested as a class-bound protocol (`any P` where `P: AnyObject`) is
// written into the caller's existential from a verified template (`ExistentialTemplates`):
// a transient's new instance (`GraphEngine.presentTransientObject`) and a singleton's or
// managed instance (`presentPublishedObject`), whose template the first request verifies
// with a second cast. These tests hold the path to what the view it replaces gives: the
// registered instance, each reference counted once, a failing factory reported with no
// frame left behind. The types are this file's own: templates are kept for the process.

private protocol Ticketing: AnyObject { var number: Int { get } }
private protocol Stamping: AnyObject { func stamp() -> String }
private final class Ticket: Ticketing, Stamping, @unchecked Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
    func stamp() -> String { "ticket \(number)" }
}
private protocol Clerk: AnyObject { var desk: Int { get } }
private final class FrontClerk: Clerk, @unchecked Sendable {
    let desk: Int
    init(_ desk: Int) { self.desk = desk }
}
/// Used by one test only: whether its template is verified is that test's to tell.
private protocol Porter: AnyObject { var floor: Int { get } }
private final class NightPorter: Porter, @unchecked Sendable {
    let floor: Int
    init(_ floor: Int) { self.floor = floor }
}
private protocol Register: AnyObject { var till: Int { get } }
private final class Till: Register, @unchecked Sendable {
    let till: Int
    init(_ till: Int) { self.till = till }
}
private struct Jammed: Error {}

/// Numbers gathered from several threads.
private final class NumberSet: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: Set<Int> = []
    func add(_ more: Set<Int>) { lock.withLock { numbers.formUnion(more) } }
    var count: Int { lock.withLock { numbers.count } }
}

/// How many frames the calling thread's resolution path holds.
private var depth: Int { ThreadState.current.frames.count }

@Suite(.isolatedDependencyGraph)
struct ClassBoundPresentationTests {
    @Test func aSingletonsFirstRequestVerifiesItsTemplate() throws {
        let container = DependencyContainer { Dependency { NightPorter(1) }.conforms(to: Porter.self).scope(.singleton) }
        DependencyGraph.activate(container)
        let porter: NightPorter = try DependencyGraph.inject()
        let id = ObjectIdentifier((any Porter).self)
        #expect(!ExistentialTemplates.presents(porter, as: id), "no cast yet")
        let first: any Porter = try DependencyGraph.inject()
        // One view is made, and a second cast verifies the template the first learnt, so
        // that later requests present the instance itself.
        #expect(ExistentialTemplates.presents(porter, as: id))
        for _ in 0..<3 {
            let again: any Porter = try DependencyGraph.inject()
            #expect(again === porter && first === porter)
            #expect(again.floor == 1)
        }
    }

    @Test func aSingletonByItsProtocolsIsItsInstanceRetainedOnce() throws {
        let census = WeakCensus()
        let built = Counter()
        let container = DependencyContainer {
            Dependency { () -> Ticket in
                census.track(Ticket(built.increment()))
            }
            .conforms(to: Ticketing.self).conforms(to: (any Ticketing & Stamping).self).scope(.singleton)
        }
        DependencyGraph.activate(container)
        do {
            var held: [any Ticketing & Stamping] = []
            for _ in 0..<5 {
                let ticket: any Ticketing = try DependencyGraph.inject()
                #expect(ticket.number == 1)
                // A composition: three words, each witness table where the cast puts it.
                let composed: any Ticketing & Stamping = try DependencyGraph.inject()
                #expect(composed === ticket)
                #expect(composed.stamp() == "ticket 1")
                held.append(composed)
            }
            #expect(census.alive == 1)
        }
        #expect(built.value == 1)
        DependencyGraph.deactivate(container)
        #expect(census.alive == 0, "no reference outlived the graph's hold")
    }

    @Test func aManagedInstanceByItsProtocolIsTheNewOneAfterAReset() throws {
        let census = WeakCensus()
        let built = Counter()
        let reset = PassthroughSubject<Void, Never>()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { census.track(Till(built.increment())) }.conforms(to: Register.self).scope(.managed(by: reset))
            })
        for round in 1...4 {
            for _ in 0..<3 { #expect((try DependencyGraph.inject() as any Register).till == round) }
            #expect(census.alive == 1, "round \(round): the managed instance only")
            reset.send()
            #expect(census.alive == 0, "round \(round): released by the reset")
        }
        #expect(built.value == 4)
    }

    @Test func eachTransientByItsProtocolIsANewInstanceRetainedOnce() throws {
        let census = WeakCensus()
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { census.track(Ticket(serial.increment())) }
                    .conforms(to: (any Ticketing & Stamping).self).scope(.instance)
            })
        // The first requests learn and verify the template (each through a view); the rest
        // are written in place. Both must give the instance, counted once.
        var kept: [any Ticketing & Stamping] = []
        for index in 1...20 {
            let ticket: any Ticketing & Stamping = try DependencyGraph.inject()
            #expect(ticket.number == index)
            #expect(ticket.stamp() == "ticket \(index)")
            if index.isMultiple(of: 5) { kept.append(ticket) }
        }
        #expect(census.alive == 4)
        kept.removeAll()
        #expect(census.alive == 0)
    }

    @Test func aThrowingTransientByItsProtocolLeavesNoFrame() throws {
        let attempts = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> FrontClerk in
                    let attempt = attempts.increment()
                    if attempt.isMultiple(of: 2) { throw Jammed() }
                    return FrontClerk(attempt)
                }
                .conforms(to: Clerk.self).scope(.instance)
            })
        for round in 1...8 {
            if round.isMultiple(of: 2) {
                do {
                    _ = try DependencyGraph.inject() as any Clerk
                    Issue.record("round \(round): expected the factory's failure")
                } catch let error as InjectionError {
                    guard case .unknown(let underlying) = error else {
                        Issue.record("round \(round): unexpected \(error)")
                        continue
                    }
                    #expect(underlying is Jammed)
                }
            } else {
                #expect(try (DependencyGraph.inject() as any Clerk).desk == round)
            }
            #expect(depth == 0, "round \(round) left no frame")
        }
    }

    @Test func aClassBoundProtocolRequestedFromManyThreadsAnswersEach() throws {
        let made = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Ticket(made.increment()) }.conforms(to: Ticketing.self).scope(.instance)
                Dependency { FrontClerk(9) }.conforms(to: Clerk.self).scope(.singleton)
            })
        let graph = DependencyGraph.currentContext
        let clerk: FrontClerk = try DependencyGraph.inject()
        let wrong = Counter()
        let numbers = NumberSet()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            graph.run {
                var seen: Set<Int> = []
                for _ in 0..<500 {
                    guard let ticket = try? DependencyGraph.inject() as any Ticketing,
                        let desk = try? DependencyGraph.inject() as any Clerk, desk === clerk
                    else {
                        wrong.increment()
                        continue
                    }
                    seen.insert(ticket.number)
                }
                numbers.add(seen)
            }
        }
        #expect(wrong.value == 0)
        #expect(made.value == 2000)
        #expect(numbers.count == 2000, "each request its own instance")
    }
}
