import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// A synchronous scope's store is kept by its thread when the scope ends with nothing else
// holding it, and reopened for the thread's next scope: a request's scope then allocates
// no store. A reopened store is a new scope in every way users can see (a new number, no
// instance, no parent); a store that anything kept after its scope ended is never reused.

private final class Visit: TeardownAware, @unchecked Sendable {
    let tornDown: Counter
    init(tornDown: Counter) { self.tornDown = tornDown }
    func tearDown() { tornDown.increment() }
}

/// Whether the calling thread keeps a store for its next scope.
private var holdsSpareStore: Bool { ThreadState.current.spareScopeStoreIdentity != nil }

/// The store of the innermost scope, by identity (not held).
private var currentStore: ObjectIdentifier? { GraphContext.scope.map(ObjectIdentifier.init) }

@Suite(.isolatedDependencyGraph)
struct ScopeStoreReuseTests {
    @Test func aThreadsNextScopeReopensTheStoreItsLastScopeLeft() throws {
        let first = try DependencyGraph.withScope { (currentStore, GraphContext.scope!.id) }
        // Kept, so that no other object can take its address meanwhile.
        #expect(holdsSpareStore)
        let second = try DependencyGraph.withScope { (currentStore, GraphContext.scope!.id) }
        #expect(first.0 != nil)
        #expect(second.0 == first.0)
        // Observers tell scopes apart by their numbers: a reopened store gets a new one.
        #expect(second.1 != first.1)
    }

    @Test func aReopenedStoreKeepsNothingOfTheScopeBefore() throws {
        let tornDown = Counter()
        DependencyGraph.activate(DependencyContainer { Dependency { Visit(tornDown: tornDown) }.scope(.scoped) })
        weak var firstVisit: Visit?
        let firstStore = try DependencyGraph.withScope { () throws -> ObjectIdentifier? in
            let visit: Visit = try DependencyGraph.inject()
            firstVisit = visit
            #expect(try DependencyGraph.inject() as Visit === visit)
            return currentStore
        }
        #expect(firstVisit == nil)
        #expect(tornDown.value == 1)
        #expect(holdsSpareStore)
        try DependencyGraph.withScope {
            #expect(currentStore == firstStore)
            let visit: Visit = try DependencyGraph.inject()
            #expect(visit !== firstVisit)
            #expect(try DependencyGraph.inject() as Visit === visit)
            #expect(GraphContext.scope?.parent == nil)
        }
        #expect(tornDown.value == 2)
    }

    @Test func aStoreReusedInsideAnotherScopeIsNestedThere() throws {
        let tornDown = Counter()
        DependencyGraph.activate(DependencyContainer { Dependency { Visit(tornDown: tornDown) }.scope(.scoped) })
        let spare = try DependencyGraph.withScope { currentStore }
        #expect(holdsSpareStore)
        try DependencyGraph.withScope {
            let outer = GraphContext.scope.map(ObjectIdentifier.init)
            let outerVisit: Visit = try DependencyGraph.inject()
            #expect(outer == spare)
            try DependencyGraph.withScope { () throws in
                // A new store: the spare one is open around this scope.
                #expect(currentStore != outer)
                #expect(GraphContext.scope?.parent.map(ObjectIdentifier.init) == outer)
                #expect(try DependencyGraph.inject() as Visit !== outerVisit)
            }
            #expect(tornDown.value == 1)
            #expect(currentStore == outer)
            #expect(try DependencyGraph.inject() as Visit === outerVisit)
        }
        #expect(tornDown.value == 2)
    }

    @Test func aScopeAContextKeptIsNeverReused() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Visit(tornDown: Counter()) }.scope(.scoped) })
        let (kept, keptStore) = try DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as Visit
            return (DependencyGraph.currentContext, currentStore)
        }
        try DependencyGraph.withScope {
            #expect(currentStore != keptStore)
            _ = try DependencyGraph.inject() as Visit
            // The kept context still names its own scope, which ended: the open one does
            // not answer for it.
            let error = #expect(throws: DependencyScopeError.self) { try kept.run { try DependencyGraph.inject() as Visit } }
            #expect(error?.reason == .scopeEnded)
        }
    }

    @Test func aScopeWhoseBodyThrewIsNotReused() throws {
        struct Failure: Error {}
        try DependencyGraph.withScope {}
        #expect(holdsSpareStore)
        #expect(throws: Failure.self) { try DependencyGraph.withScope { throw Failure() } }
        // The failed scope took the spare store and freed it.
        #expect(!holdsSpareStore)
        #expect(try DependencyGraph.withScope { currentStore } != nil)
        #expect(holdsSpareStore)
    }

    @Test func eachThreadReusesOnlyItsOwnStores() throws {
        let mine = try DependencyGraph.withScope { currentStore }
        #expect(holdsSpareStore)
        let theirs = Protected<ObjectIdentifier?>(nil)
        let done = DispatchSemaphore(value: 0)
        let graph = DependencyGraph.currentContext
        Thread.detachNewThread {
            graph.run { theirs.withLock { $0 = try? DependencyGraph.withScope { currentStore } } }
            done.signal()
        }
        done.wait()
        #expect(theirs.withLock { $0 } != nil)
        #expect(theirs.withLock { $0 } != mine)
        #expect(try DependencyGraph.withScope { currentStore } == mine)
    }

    @MainActor @Test func aTaskBoundScopeLeavesItsStoreToTheThreadItEndsOn() async throws {
        let store = try await DependencyGraph.withScope { () async -> ObjectIdentifier? in
            await Task.yield()
            return currentStore
        }
        // Ended on the main actor, whose thread is the main thread, and nothing ran on the
        // main actor between the end and this line.
        #expect(store != nil)
        #expect(ThreadState.current.spareScopeStoreIdentity == store)
    }

    @MainActor @Test func aTaskBoundScopeATaskKeptIsNeverReused() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Visit(tornDown: Counter()) }.scope(.scoped) })
        let (gate, open) = AsyncStream<Void>.makeStream()
        var late: Task<Void, Never>?
        try await DependencyGraph.withScope {
            await Task.yield()
            _ = try DependencyGraph.inject() as Visit
            // Inherits the scope's binding, and so holds the scope past its end.
            late = Task {
                for await _ in gate { break }
                let error = #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as Visit }
                #expect(error?.reason == .scopeEnded)
            }
        }
        try await DependencyGraph.withScope {
            await Task.yield()
            _ = try DependencyGraph.inject() as Visit
            open.yield()
            open.finish()
            await late?.value
        }
    }
}
