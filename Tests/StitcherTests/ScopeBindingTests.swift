import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Session: @unchecked Sendable {}

/// The sessions one factory saw: its task's scope, a synchronous scope it opened, and its
/// task's scope again.
private final class SessionsSeen: @unchecked Sendable {
    let before: Session
    let inner: Session
    let after: Session

    init() throws {
        before = try DependencyGraph.inject()
        inner = try DependencyGraph.withScope { try DependencyGraph.inject() }
        after = try DependencyGraph.inject()
    }
}

/// Where a scope is bound: an asynchronous scope to its task (and child tasks), a
/// synchronous one to the thread running its body; a carried context binds it anywhere.
@Suite(.isolatedDependencyGraph)
struct ScopeBindingTests {
    @Test func aSynchronousScopeInsideAnAsynchronousOneIsTheInnermost() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        try await DependencyGraph.withScope {
            let outer: Session = try DependencyGraph.inject()
            let inner: Session = try DependencyGraph.withScope {
                let inner: Session = try DependencyGraph.inject()
                #expect(try (DependencyGraph.inject() as Session) === inner)
                return inner
            }
            #expect(inner !== outer)
            #expect(try (DependencyGraph.inject() as Session) === outer, "the outer scope is seen again")
            await Task.yield()
            #expect(try (DependencyGraph.inject() as Session) === outer, "also after a suspension")
        }
    }

    @Test func aResolutionSeesItsTasksScopeAndTheSynchronousScopesItsFactoriesOpen() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { try SessionsSeen() }.scope(.instance)
            })
        var requests: [(body: Session, seen: SessionsSeen)] = []
        for _ in 0..<2 {
            // One task, one thread between the scopes: each resolution reads its own scope.
            let request = try await DependencyGraph.withScope {
                let body: Session = try DependencyGraph.inject()
                await Task.yield()
                return (body, try DependencyGraph.inject() as SessionsSeen)
            }
            requests.append(request)
        }
        for (body, seen) in requests {
            #expect(seen.before === body, "the factory sees its task's scope")
            #expect(seen.inner !== body, "a synchronous scope it opens is the innermost")
            #expect(seen.after === body, "and its task's scope again once that one ends")
        }
        #expect(requests[0].body !== requests[1].body, "the second request's scope is its own")
    }

    @Test func eachResolutionReadsTheScopeOfItsOwnRequest() async throws {
        // A resolution reads its task's scope once (nested injections reuse it); the next
        // request's resolution, on the same task and thread, must read its own. The earlier
        // requests' contexts keep their scopes allocated, so that a new scope cannot take an
        // old one's address.
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { try SessionsSeen() }.scope(.instance)
            })
        var contexts: [DependencyGraph.Context] = []
        for _ in 0..<5 {
            let (body, seen, context) = try await DependencyGraph.withScope {
                await Task.yield()
                let body: Session = try DependencyGraph.inject()
                return (body, try DependencyGraph.inject() as SessionsSeen, DependencyGraph.currentContext)
            }
            contexts.append(context)
            #expect(seen.before === body && seen.after === body)
        }
    }

    @Test func aSynchronousScopeEndsOnItsThreadWithItsBody() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        try DependencyGraph.withScope { _ = try DependencyGraph.inject() as Session }
        let error = #expect(throws: DependencyScopeError.self) {
            try DependencyGraph.inject() as Session
        }
        #expect(error?.reason == .noScopeOpen)
    }

    @Test func aTaskStartedInASynchronousBodySeesTheScopeOnlyThroughACarriedContext() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        let graph = DependencyGraph.currentContext
        let outcome = Protected<(uncarried: DependencyScopeError.Reason?, carried: Bool)>((nil, false))
        // The scope's body blocks while its task runs: on a thread of its own, awaited without
        // holding a thread of the cooperative pool, which the task needs.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                graph.run {
                    try? DependencyGraph.withScope {
                        let mine: Session = try DependencyGraph.inject()
                        let context = DependencyGraph.currentContext
                        let finished = DispatchSemaphore(value: 0)
                        Task {
                            do {
                                _ = try DependencyGraph.inject() as Session
                            } catch {
                                outcome.withLock { $0.uncarried = (error as? DependencyScopeError)?.reason }
                            }
                            // The asynchronous `run`: the scope is bound to this task.
                            let same = await context.run {
                                await Task.yield()
                                return (try? DependencyGraph.inject() as Session) === mine
                            }
                            outcome.withLock { $0.carried = same }
                            finished.signal()
                        }
                        finished.wait()
                    }
                }
                done.resume()
            }
        }
        let seen = outcome.withLock { $0 }
        #expect(seen.uncarried == .noScopeOpen)
        #expect(seen.carried, "the carried context binds the scope to the task")
    }
}
