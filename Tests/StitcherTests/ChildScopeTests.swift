import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Request: @unchecked Sendable { let id = UUID() }
private final class Ledger: TeardownAware, @unchecked Sendable {
    let generation: Int
    let tornDown: Protected<[Int]>
    init(_ generation: Int, _ tornDown: Protected<[Int]>) {
        self.generation = generation
        self.tornDown = tornDown
    }
    func tearDown() { tornDown.withLock { $0.append(generation) } }
}
private final class Greeting: @unchecked Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// Dependency scopes: one instance per scope, released and torn down when the scope ends,
/// nested, inherited by child tasks, carried to threads, overridden by a scope's container.
@Suite(.isolatedDependencyGraph)
struct ChildScopeTests {
    @Test func aScopedDependencyIsOneInstancePerScope() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Request() }.scope(.scoped) })
        let (first, again) = try DependencyGraph.withScope {
            (try DependencyGraph.inject() as Request, try DependencyGraph.inject() as Request)
        }
        let other: Request = try DependencyGraph.withScope { try DependencyGraph.inject() }
        #expect(first === again)
        #expect(first !== other)
        #expect(DependencyScope.scoped.description == "scoped")
        #expect(DependencyScope.scoped == .scoped && DependencyScope.scoped != .singleton)
    }

    @Test func theScopeReleasesItsInstancesWhenItEnds() throws {
        let made = Made()
        DependencyGraph.activate(DependencyContainer { Dependency { made.track(Request()) }.scope(.scoped) })
        try DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as Request
            #expect(made.alive == 1)
        }
        #expect(made.count == 1 && made.alive == 0)
    }

    @Test func aScopeReleasesAnInstanceAnIdleThreadResolved() throws {
        let made = Made()
        DependencyGraph.activate(DependencyContainer { Dependency { made.track(Request()) }.scope(.scoped) })
        var thread: IdleThread?
        try DependencyGraph.withScope {
            thread = IdleThread { _ = try? DependencyGraph.inject(byType: Request.self) }
            onIdleWorker { _ = try? DependencyGraph.inject(byType: Request.self) }
            #expect(made.count == 1 && made.alive == 1)
        }
        // The thread is still parked, its last snapshot cached.
        #expect(made.alive == 0)
        thread?.end()
    }

    @Test func nestedScopesKeepTheirOwnInstances() throws {
        let made = Made()
        DependencyGraph.activate(DependencyContainer { Dependency { made.track(Request()) }.scope(.scoped) })
        try DependencyGraph.withScope {
            let outer: Request = try DependencyGraph.inject()
            let inner: Request = try DependencyGraph.withScope {
                let inner: Request = try DependencyGraph.inject()
                #expect(inner !== outer)
                #expect(try (DependencyGraph.inject() as Request) === inner)
                return inner
            }
            #expect(made.alive == 2)
            withExtendedLifetime(inner) {}
            #expect(try (DependencyGraph.inject() as Request) === outer)
        }
        #expect(made.alive == 0)
    }

    @Test func childTasksShareTheirParentsScope() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Request() }.scope(.scoped) })
        try await DependencyGraph.withScope {
            let mine: Request = try DependencyGraph.inject()
            let ids = try await withThrowingTaskGroup(of: UUID.self) { group in
                for _ in 0..<8 { group.addTask { (try DependencyGraph.inject() as Request).id } }
                return try await group.reduce(into: Set<UUID>()) { $0.insert($1) }
            }
            #expect(ids == [mine.id])
        }
    }

    @Test func manyTasksInTheirOwnScopesAtOnce() async throws {
        let made = Made()
        await DependencyGraph.activate(DependencyContainer { Dependency { made.track(Request()) }.scope(.scoped) })
        let sharedWithinScope = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await DependencyGraph.withScope {
                        let mine: Request = try DependencyGraph.inject()
                        async let other: Request = DependencyGraph.injectAsync()
                        await Task.yield()
                        return try await other === mine && (try DependencyGraph.inject() as Request) === mine
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(sharedWithinScope)
        #expect(made.count == 32 && made.alive == 0)
    }

    @Test func aCapturedContextCarriesTheScopeToAThread() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Request() }.scope(.scoped) })
        let ended: DependencyGraph.Context = try DependencyGraph.withScope {
            let mine: Request = try DependencyGraph.inject()
            let context = DependencyGraph.currentContext
            let seen = Protected<UUID?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                context.run { seen.withLock { $0 = (try? DependencyGraph.inject() as Request)?.id } }
                done.signal()
            }
            done.wait()
            #expect(seen.withLock { $0 } == mine.id)
            return context
        }
        let error = #expect(throws: DependencyScopeError.self) { try ended.run { try DependencyGraph.inject() as Request } }
        #expect(error?.reason == .scopeEnded)
    }

    @Test func parametersGiveOneInstancePerValuePerScope() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { (name: String) in Greeting(name) }.scope(.scoped) })
        try DependencyGraph.withScope {
            let a: Greeting = try DependencyGraph.inject(parameters: "a")
            #expect(try (DependencyGraph.inject(parameters: "a") as Greeting) === a)
            #expect(try (DependencyGraph.inject(parameters: "b") as Greeting) !== a)
        }
    }

    @Test func aScopeServingManyRegistrationsKeepsOneInstanceOfEach() throws {
        let made = Made()
        DependencyGraph.activate(
            DependencyContainer {
                for index in 0..<40 { Dependency { made.track(Request()) }.named("request-\(index)").scope(.scoped) }
            })
        try DependencyGraph.withScope {
            let first = try (0..<40).map { try DependencyGraph.inject(byName: "request-\($0)") as Request }
            let again = try (0..<40).reversed().map { try DependencyGraph.inject(byName: "request-\($0)") as Request }
            #expect(zip(first, again.reversed()).allSatisfy { $0 === $1 })
            #expect(Set(first.map(ObjectIdentifier.init)).count == 40)
        }
        #expect(made.count == 40 && made.alive == 0)
    }

    @Test func aScopesContainerOverridesTheGraphInsideItOnly() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Greeting("root") }.scope(.singleton)
                Dependency { Request() }.scope(.singleton)
            })
        let root: Request = try DependencyGraph.inject()
        try DependencyGraph.withScope(DependencyContainer { Dependency { Greeting("request") } }) { () throws in
            #expect(try (DependencyGraph.inject() as Greeting).text == "request")
            #expect(try (DependencyGraph.inject() as Request) === root)
        }
        #expect(try (DependencyGraph.inject() as Greeting).text == "root")
    }

    @Test func aScopeWithAContainerSeesTheGraphChangeWhileItIsOpen() throws {
        let graph = DependencyGraph.currentContext
        try DependencyGraph.withScope(DependencyContainer { Dependency { Greeting("request") } }) { () throws in
            #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Request }
            graph.activate(DependencyContainer { Dependency { Request() }.scope(.singleton) })
            #expect(try (DependencyGraph.inject() as Request?) != nil)
            #expect(try (DependencyGraph.inject() as Greeting).text == "request")
        }
    }

    @Test func scopesOnManyThreadsAtOnceKeepTheirInstancesApart() throws {
        let made = Made()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { made.track(Request()) }.scope(.scoped)
                Dependency { Greeting("shared") }.scope(.singleton)
            })
        let mixed = Protected(0)
        let finished = onThreads(4) { _ in
            for _ in 0..<200 {
                try? DependencyGraph.withScope {
                    let first: Request = try DependencyGraph.inject()
                    let results = (0..<3).map { _ in try? DependencyGraph.inject() as Request }
                    if results.contains(where: { $0 !== first }) { mixed.withLock { $0 += 1 } }
                    _ = try DependencyGraph.inject() as Greeting
                }
            }
        }
        #expect(finished)
        #expect(mixed.withLock { $0 } == 0)
        #expect(made.count == 800)
        #expect(made.alive == 0)
    }

    /// A scope names its slots by the entries' serial numbers, not their addresses: a
    /// registration replaced while the scope is open (its entry released, a new one made,
    /// perhaps at the same address) gets an instance of its own, and the replaced one is
    /// still torn down when the scope ends, its container long gone.
    @Test func aScopeTellsAReplacedRegistrationFromItsSuccessor() throws {
        let graph = DependencyGraph.currentContext
        let tornDown = Protected<[Int]>([])
        let generations = try DependencyGraph.withScope {
            var seen: [Int] = []
            for generation in 0..<20 {
                let container = DependencyContainer { Dependency { Ledger(generation, tornDown) }.scope(.scoped) }
                graph.activate(container)
                let ledger: Ledger = try DependencyGraph.inject()
                #expect(try (DependencyGraph.inject() as Ledger) === ledger)
                seen.append(ledger.generation)
                graph.deactivate(container)
            }
            return seen
        }
        #expect(generations == Array(0..<20))
        #expect(tornDown.withLock { $0 } == Array((0..<20).reversed()), "every instance, newest first")
    }
}
