import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// A transient struct injected as its own type is made by the caller's own code: the engine
// finds the registration, checks for a cycle and pushes its frame, and hands back the
// registration's typed factory (`ValueFactory`), which `DependencyGraph.makeValue(with:)`
// runs before popping the frame. These tests hold that path to what every other build
// does: the frame is on the path while the factory runs and gone after it, whether it
// returns or throws; references the value holds are counted exactly once; and only the
// registrations the path can serve get a typed factory.

private final class Connection: @unchecked Sendable {}
private struct Holder: @unchecked Sendable { let connection: Connection }
private struct Outer: Sendable {
    let inner: Inner
    let depth: Int
}
private struct Inner: Sendable { let depth: Int }
private protocol Shape { var sides: Int { get } }
private struct Square: Shape { var sides: Int { 4 } }
private struct Failure: Error {}
private struct Nothing: Equatable, Sendable {}
private struct OneByte: Equatable, Sendable { let on: Bool }

/// How many frames the calling thread's resolution path holds.
private var depth: Int { ThreadState.current.frames.count }

@Suite(.isolatedDependencyGraph)
struct TypedValueFactoryTests {
    @Test func onlyAValueMadeAsItsRegisteredTypeGetsATypedFactory() throws {
        let container = DependencyContainer {
            Dependency { Inner(depth: 0) }
            Dependency { Square() as any Shape }
            Dependency { Square() }.decorated { $0 }
            Dependency { (tag: Int) in Inner(depth: tag) }
        }
        let typed = container.registrations().map { $0.writesValues && $0.valueFactory != nil }
        // An existential's factory asks each value of another type whether it is
        // `PostInstantiationAware`; a decorator replaces the factory; a factory with
        // parameters is not the path's.
        #expect(typed == [true, true, false, false])
    }

    @Test func emptyAndOneByteStructsComeBackAsMade() throws {
        // Their buffers may sit at any address, odd ones included: the tagged factory must
        // still be told from a value written in place.
        let empties = Counter()
        let toggles = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Nothing in
                    empties.increment()
                    return Nothing()
                }
                Dependency { OneByte(on: toggles.increment().isMultiple(of: 2)) }
            })
        for round in 1...10 {
            #expect(try DependencyGraph.inject() as Nothing == Nothing())
            #expect(try DependencyGraph.inject() as OneByte == OneByte(on: round.isMultiple(of: 2)))
        }
        #expect(empties.value == 10)
        #expect(toggles.value == 10)
    }

    @Test func theFrameIsOnThePathWhileTheFactoryRunsAndGoneAfter() throws {
        let seen = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Inner in Inner(depth: depth) }
                Dependency { () -> Outer in
                    let before = depth
                    let inner: Inner = try DependencyGraph.inject()
                    seen.increment()
                    return Outer(inner: inner, depth: before)
                }
            })
        #expect(depth == 0)
        let outer: Outer = try DependencyGraph.inject()
        #expect(outer.depth == 1, "the struct's own frame, while its factory runs")
        #expect(outer.inner.depth == 2, "a struct built inside it nests its frame")
        #expect(depth == 0)
        #expect(seen.value == 1)
    }

    @Test func aThrowingFactoryPopsItsFrameAndIsReportedAsTheFactorysFailure() throws {
        let attempts = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Inner in
                    if attempts.increment().isMultiple(of: 2) { throw Failure() }
                    return Inner(depth: depth)
                }
                Dependency { Outer(inner: try DependencyGraph.inject(), depth: depth) }
            })
        for round in 1...6 {
            if round.isMultiple(of: 2) {
                #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Outer }
            } else {
                #expect(try (DependencyGraph.inject() as Outer).inner.depth == 2)
            }
            #expect(depth == 0, "round \(round) left no frame")
        }
        #expect(attempts.value == 6)
    }

    @Test func theFailureNamesTheFactoryThatThrew() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { () throws -> Inner in throw Failure() } })
        do {
            _ = try DependencyGraph.inject() as Inner
            Issue.record("expected a failure")
        } catch let error as InjectionError {
            guard case .unknown(let underlying) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(underlying is Failure)
        }
    }

    @Test func referencesAValueHoldsAreCountedOnce() throws {
        let census = WeakCensus()
        DependencyGraph.activate(DependencyContainer { Dependency { Holder(connection: census.track(Connection())) } })
        var kept: [Holder] = []
        for index in 0..<200 {
            let holder: Holder = try DependencyGraph.inject()
            if index.isMultiple(of: 50) { kept.append(holder) }
        }
        #expect(census.alive == 4)
        #expect(Set(kept.map { ObjectIdentifier($0.connection) }).count == 4)
        kept.removeAll()
        #expect(census.alive == 0)
    }

    @Test func aStructRequestedFromManyThreadsIsMadeForEach() throws {
        let made = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Inner in
                    made.increment()
                    return Inner(depth: depth)
                }
            })
        let graph = DependencyGraph.currentContext
        let wrongDepths = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            graph.run {
                for _ in 0..<500 where (try? DependencyGraph.inject() as Inner)?.depth != 1 { wrongDepths.increment() }
            }
        }
        #expect(wrongDepths.value == 0)
        #expect(made.value == 2000)
    }
}
