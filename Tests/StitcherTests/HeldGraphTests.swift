import Foundation
import Stitcher
import StitcherTesting
import Testing

private protocol Store: AnyObject, Sendable {}
private final class MemoryStore: Store, @unchecked Sendable {}
private final class DiskStore: Store, @unchecked Sendable {}
private final class Session: @unchecked Sendable {}

private final class Reports: @unchecked Sendable {
    @Injected var store: Store
    init(graph: DependencyGraph.Context) { _store = Injected(in: graph) }
}

/// A graph every instance of `Audit` injects from, written in the attribute.
private enum AuditGraph {
    static let context: DependencyGraph.Context = {
        let context = DependencyGraph.Context.isolated()
        context.activate(
            DependencyContainer {
                Dependency { DiskStore() as Store }.scope(.singleton)
                Dependency { MemoryStore() as Store }.named("memory").scope(.singleton)
            })
        return context
    }()
}

private struct Audit {
    @EagerInjected(in: AuditGraph.context) var store: Store
    @Injected(in: AuditGraph.context, name: "memory") var memory: Store
}

/// Graphs you hold: `DependencyGraph.Context.isolated()` as a value to activate in, inject
/// from and pass around, ending with its last copy.
@Suite(.isolatedDependencyGraph)
struct HeldGraphTests {
    @Test func anIsolatedContextIsAGraphOfItsOwn() throws {
        let first = DependencyGraph.Context.isolated()
        let second = DependencyGraph.Context.isolated()
        first.activate(DependencyContainer { Dependency { MemoryStore() as Store }.scope(.singleton) })
        second.activate(DependencyContainer { Dependency { DiskStore() as Store }.scope(.singleton) })
        #expect(try first.inject() as Store is MemoryStore)
        #expect(try second.inject() as Store is DiskStore)
        #expect(try (first.inject() as Store) === (first.inject() as Store))
        // The task's own graph sees neither.
        #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Store }
        #expect(try first.run { try DependencyGraph.inject() as Store } is MemoryStore)
    }

    @Test func injectsByNameValueAndParameters() throws {
        let graph = DependencyGraph.Context.isolated()
        graph.activate(
            DependencyContainer {
                Dependency { MemoryStore() as Store }.named("memory")
                Dependency { DiskStore() as Store }.associated(with: 7)
                Dependency { (name: String) in name.uppercased() }
            })
        #expect(try graph.inject(byName: "memory") as Store is MemoryStore)
        #expect(try graph.inject(byValue: 7) as Store is DiskStore)
        #expect(try graph.inject(parameters: "abc") as String == "ABC")
    }

    @Test func theGraphEndsWithItsLastCopy() throws {
        let made = Made()
        var graph: DependencyGraph.Context? = .isolated()
        graph?.activate(DependencyContainer { Dependency { made.track(MemoryStore()) as Store }.scope(.singleton) })
        var copy = graph
        _ = try graph?.inject() as Store?
        graph = nil
        #expect(made.alive == 1)
        copy = nil
        withExtendedLifetime(copy) {}
        #expect(made.count == 1 && made.alive == 0)
    }

    @Test func deactivatingInAHeldGraphReleasesItsInstances() throws {
        let made = Made()
        let graph = DependencyGraph.Context.isolated()
        let container = DependencyContainer { Dependency { made.track(MemoryStore()) as Store }.scope(.singleton) }
        graph.activate(container)
        #expect(graph.isActive(container))
        _ = try graph.inject() as Store
        graph.releaseInstances()
        #expect(made.alive == 0)
        _ = try graph.inject() as Store
        graph.deactivate(container)
        #expect(!graph.isActive(container))
        #expect(made.count == 2 && made.alive == 0)
    }

    @Test func propertyWrappersInjectFromTheContextGiven() throws {
        let graph = DependencyGraph.Context.isolated()
        graph.activate(DependencyContainer { Dependency { MemoryStore() as Store }.scope(.singleton) })
        DependencyGraph.activate(DependencyContainer { Dependency { DiskStore() as Store }.scope(.singleton) })
        let reports = Reports(graph: graph)
        #expect(reports.store is MemoryStore)
        let audit = Audit()
        #expect(audit.store is DiskStore)
        #expect(audit.memory is MemoryStore)
    }

    @Test func aPropertyWrapperKeepsItsGraphAlive() throws {
        let made = Made()
        var reports: Reports?
        do {
            let graph = DependencyGraph.Context.isolated()
            graph.activate(DependencyContainer { Dependency { made.track(MemoryStore()) as Store }.scope(.singleton) })
            reports = Reports(graph: graph)
        }
        #expect(reports?.store != nil)
        #expect(made.alive == 1)
        reports = nil
        #expect(made.alive == 0)
    }

    @Test func aHeldGraphOpensScopes() throws {
        let graph = DependencyGraph.Context.isolated()
        graph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        let (a, b) = try graph.withScope { (try DependencyGraph.inject() as Session, try DependencyGraph.inject() as Session) }
        #expect(a === b)
        let c: Session = try graph.withScope { try DependencyGraph.inject() }
        #expect(c !== a)
    }

    @Test func anAsyncActivationAndInjectionInAHeldGraph() async throws {
        let graph = DependencyGraph.Context.isolated()
        await graph.activate(DependencyContainer { Dependency { () async -> Store in MemoryStore() }.scope(.singleton) })
        let store: Store = try await graph.injectAsync()
        #expect(store is MemoryStore)
        let inScope: Store = try await graph.run { try await DependencyGraph.injectAsync() }
        #expect(inScope === store)
    }
}
