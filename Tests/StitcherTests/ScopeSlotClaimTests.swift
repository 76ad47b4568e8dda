import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Session: @unchecked Sendable { let id = UUID() }
private final class Unsteady: Sendable {}
private final class Looping: Sendable { init(_ again: Looping) {} }
private final class Journal: TeardownAware, @unchecked Sendable {
    let tornDown: Protected<Int>
    init(_ tornDown: Protected<Int>) { self.tornDown = tornDown }
    func tearDown() { tornDown.withLock { $0 += 1 } }
}
private struct NotYet: Error {}
private final class Bystander: Sendable {}

/// A `.scoped` registration without parameters: the first injection that finds its slot new
/// claims it in the same lock as the read; a build in progress or failed, a possible cycle
/// and a scope that ended take the full path. Either way, one instance per scope.
@Suite(.isolatedDependencyGraph)
struct ScopeSlotClaimTests {
    @Test func racingFirstInjectionsBuildOneInstancePerScope() async throws {
        let made = Made()
        await DependencyGraph.activate(DependencyContainer { Dependency { made.track(Session()) }.scope(.scoped) })
        let scopes = 200
        for _ in 0..<scopes {
            let ids = try await DependencyGraph.withScope {
                try await withThrowingTaskGroup(of: UUID.self) { group in
                    for _ in 0..<8 { group.addTask { (try DependencyGraph.inject() as Session).id } }
                    return try await group.reduce(into: Set<UUID>()) { $0.insert($1) }
                }
            }
            #expect(ids.count == 1)
        }
        #expect(made.count == scopes && made.alive == 0)
    }

    @Test func aFailedFirstBuildLeavesTheSlotToTheNextInjection() throws {
        let calls = Protected(0)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Unsteady in
                    let call = calls.withLock {
                        $0 += 1
                        return $0
                    }
                    if call == 1 { throw NotYet() }
                    return Unsteady()
                }
                .scope(.scoped)
            })
        try DependencyGraph.withScope {
            #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Unsteady }
            let built: Unsteady = try DependencyGraph.inject()
            let again: Unsteady = try DependencyGraph.inject()
            #expect(built === again)
            #expect(calls.withLock { $0 } == 2)
        }
    }

    @Test func aScopedFactoryInjectingItselfIsACycleEveryTime() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Looping(try DependencyGraph.inject()) }.scope(.scoped) })
        let cycle = InjectionError.cyclicDependencyReference(.init(entries: [.type("Looping"), .type("Looping")]))
        try DependencyGraph.withScope {
            for _ in 0..<3 {
                #expect(throws: cycle) { try DependencyGraph.inject() as Looping }
            }
        }
    }

    @Test func aFactoryInjectingItselfInANestedScopeIsACycleToo() throws {
        // The nested scope's slot is new: only the resolution's frames tell that the
        // injection closes a loop, and the slot must not be claimed.
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Looping(try DependencyGraph.withScope { try DependencyGraph.inject() }) }.scope(.scoped)
            })
        let cycle = InjectionError.cyclicDependencyReference(.init(entries: [.type("Looping"), .type("Looping")]))
        try DependencyGraph.withScope {
            #expect(throws: cycle) { try DependencyGraph.inject() as Looping }
        }
    }

    @Test func aBuildThatOutlivesItsScopeIsTornDownAndReported() throws {
        let tornDown = Protected(0)
        let started = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Journal in
                    started.signal()
                    resume.wait()
                    return Journal(tornDown)
                }
                .scope(.scoped)
            })
        let outcome = Protected<Result<Journal, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        try DependencyGraph.withScope {
            let context = DependencyGraph.currentContext
            Thread.detachNewThread {
                let result = Result { try context.run { try DependencyGraph.inject() as Journal } }
                outcome.withLock { $0 = result }
                finished.signal()
            }
            started.wait()  // the other thread claimed the slot and runs the factory
        }
        resume.signal()
        finished.wait()
        let error = #expect(throws: DependencyScopeError.self) { try outcome.withLock { $0 }?.get() }
        #expect(error?.reason == .scopeEnded)
        #expect(tornDown.withLock { $0 } == 1)
    }

    @Test func aBuildWhoseRegistrationLeavesTheGraphMeanwhileIsStillKeptAndTornDown() throws {
        // The factory deactivates its own container and makes this thread read the index
        // again: the snapshot the build's entry came from is replaced while it runs. The
        // instance is still kept by the scope (and torn down at its end), with the entry
        // alive until then (checked builds and the sanitizers would see it otherwise).
        let tornDown = Protected(0)
        let own = Protected<DependencyContainer?>(nil)
        let container = DependencyContainer {
            Dependency { () -> Journal in
                if let container = own.withLock({ $0 }) { DependencyGraph.deactivate(container) }
                _ = try DependencyGraph.inject() as Bystander
                return Journal(tornDown)
            }
            .scope(.scoped)
        }
        own.withLock { $0 = container }
        DependencyGraph.activate(container)
        DependencyGraph.activate(DependencyContainer { Dependency { Bystander() } })
        try DependencyGraph.withScope {
            let journal: Journal = try DependencyGraph.inject()
            #expect(tornDown.withLock { $0 } == 0)
            // The registration is gone: the scope keeps the instance, but no new one is built.
            #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Journal }
            withExtendedLifetime(journal) {}
        }
        #expect(tornDown.withLock { $0 } == 1)
        // The factory reaches its container through `own`: the cycle is broken for the leak
        // checker.
        own.withLock { $0 = nil }
    }
}
