import Dispatch
import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

private final class Session: @unchecked Sendable {}
private final class Cart: @unchecked Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}

/// Runs `body` on a thread of its own and waits for it (at most a minute, so that a lost
/// wake-up fails instead of hanging the suite).
private func onThread<R: Sendable>(_ body: @escaping @Sendable () throws -> R) throws -> R {
    let result = Protected<Result<R, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        result.withLock { $0 = Result(catching: body) }
        done.signal()
    }
    #expect(done.wait(timeout: .now() + 60) == .success, "the thread never finished")
    // Taken out: the thread's closure may still hold `result` a moment after it signals.
    return try #require(result.withLock { $0.take() }).get()
}

/// The scope in which the calling code runs.
private var currentScope: ScopeStore { GraphContext.scope! }

/// A synchronous scope's opening thread works on its slots without the lock until a context or
/// a deferred injection captures the scope; from then on every thread, the opening one
/// included, takes the lock, and all of them share the scope's instances.
@Suite(.isolatedDependencyGraph)
struct ScopeSharingTests {
    @Test func aScopeNobodyCapturedStaysWithItsThread() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        try DependencyGraph.withScope {
            let first: Session = try DependencyGraph.inject()
            #expect(!currentScope.isSharedAcrossThreads)
            #expect(try DependencyGraph.inject() as Session === first)
            // A nested scope with a container of its own does not share its enclosing one.
            try DependencyGraph.withScope(DependencyContainer { Dependency { Cart(session: Session()) } }) {
                #expect(!currentScope.parent!.isSharedAcrossThreads)
            }
            #expect(!currentScope.isSharedAcrossThreads)
        }
    }

    @Test func aScopeBoundToATaskIsSharedFromTheStart() async throws {
        try await DependencyGraph.withScope {
            await Task.yield()
            #expect(currentScope.isSharedAcrossThreads)
        }
    }

    @Test func aContextCapturedMidBodySharesTheInstancesBothWays() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Cart(session: try DependencyGraph.inject()) }.scope(.scoped)
            })
        try DependencyGraph.withScope {
            let session: Session = try DependencyGraph.inject()
            let context = DependencyGraph.currentContext
            #expect(currentScope.isSharedAcrossThreads)
            // The other thread reads what the opening thread built without the lock, and
            // builds what it has not yet.
            let (seenSession, cart) = try onThread {
                try context.run { (try DependencyGraph.inject() as Session, try DependencyGraph.inject() as Cart) }
            }
            #expect(seenSession === session)
            #expect(cart.session === session)
            #expect(try DependencyGraph.inject() as Cart === cart)
        }
    }

    @Test func aThreadWaitingForABuildSharedMidBuildGetsItsInstance() throws {
        // The factory shares the scope while it builds: the other thread finds the slot
        // claimed and waits; the build, completed under the lock from then on, wakes it.
        let waiter = Protected<(() throws -> Session)?>(nil)
        let started = DispatchSemaphore(value: 0)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Session in
                    let context = DependencyGraph.currentContext
                    let found = Protected<Result<Session, any Error>?>(nil)
                    let done = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        started.signal()
                        found.withLock { $0 = Result { try context.run { try DependencyGraph.inject() as Session } } }
                        done.signal()
                    }
                    started.wait()
                    // Time for the thread to find the slot claimed (it finds the instance
                    // built otherwise: the same answer, by the other path).
                    Thread.sleep(forTimeInterval: 0.01)
                    waiter.withLock {
                        $0 = {
                            #expect(done.wait(timeout: .now() + 60) == .success, "the waiting thread was never woken")
                            return try #require(found.withLock { $0 }).get()
                        }
                    }
                    return Session()
                }
                .scope(.scoped)
            })
        let (session, seen) = try DependencyGraph.withScope { () throws -> (Session, Session?) in
            let session: Session = try DependencyGraph.inject()
            // Waited for inside the scope: after it, the thread would be refused.
            let seen = try waiter.withLock { $0 }.map { try $0() }
            return (session, seen)
        }
        #expect(seen === session)
    }

    @Test func aProviderCalledOnAnotherThreadBuildsInTheScopeItWasInjectedIn() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Cart(session: try DependencyGraph.inject()) }.scope(.scoped)
            })
        let provider = try DependencyGraph.withScope {
            let provider: Provider<Cart> = try DependencyGraph.inject()
            #expect(currentScope.isSharedAcrossThreads)
            let cart = try onThread { try provider() }
            #expect(try DependencyGraph.inject() as Cart === cart)
            #expect(try DependencyGraph.inject() as Session === cart.session)
            return provider
        }
        // Once the scope has ended, the provider refuses, on any thread.
        #expect(throws: DeferredInjectionError.self) { try onThread { try provider() } }
    }

    @Test func aSharedScopeStillEndsItsInstancesOnce() throws {
        let made = Made()
        DependencyGraph.activate(DependencyContainer { Dependency { made.track(Session()) }.scope(.scoped) })
        for share in [false, true] {
            try DependencyGraph.withScope {
                if share {
                    let context = DependencyGraph.currentContext
                    _ = try onThread { try context.run { try DependencyGraph.inject() as Session } }
                }
                _ = try DependencyGraph.inject() as Session
            }
        }
        #expect(made.count == 2 && made.alive == 0)
    }
}
