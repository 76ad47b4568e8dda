import Testing

@testable import Stitcher

private final class Pruned: Sendable { init() {} }

/// After each change to a graph (`GraphConfiguration.autoCleanupEnabled`), the storage of
/// shared instances that were released is dropped; entries that never stored anything are
/// skipped without their lock (`IndexEntry.mayStoreInstances`), and live instances stay.
@Suite struct StoragePruningTests {
    @Test func aChangeDropsWhatReleasedSharedInstancesLeftAndKeepsLiveOnes() throws {
        let context = DependencyGraph.Context.isolated()
        context.activate(
            DependencyContainer {
                Dependency { Pruned() }.scope(.shared).named("released")
                Dependency { (_: Int) in Pruned() }.scope(.shared).named("released with a parameter")
                Dependency { Pruned() }.scope(.shared).named("held")
                Dependency { Pruned() }.scope(.shared).named("never injected")
            })
        let entries = context.graph.lock.withLock { context.graph.current.entries }
        func entry(_ name: String) throws -> IndexEntry {
            try #require(entries.first { $0.record.locator.isLocatedBy(name: name) })
        }
        weak var released: Pruned?
        weak var releasedWithParameter: Pruned?
        do {
            released = try context.inject(byName: "released")
            releasedWithParameter = try context.inject(byName: "released with a parameter", parameters: 7)
        }
        let held: Pruned = try context.inject(byName: "held")
        #expect(released == nil && releasedWithParameter == nil, "nothing else holds them")
        #expect(try entry("released").mayStoreInstances, "the weak reference stays until the next change")
        #expect(try entry("released with a parameter").mayStoreInstances)
        #expect(try !entry("never injected").mayStoreInstances, "an entry never built has nothing to prune")

        context.activate(DependencyContainer { Dependency { Pruned() }.named("another container") })

        #expect(try !entry("released").mayStoreInstances, "the released instance's weak reference is dropped")
        #expect(try !entry("released with a parameter").mayStoreInstances, "and the state that kept it")
        #expect(try entry("held").mayStoreInstances, "a live instance is kept")
        #expect(try context.inject(byName: "held") as Pruned === held)
        #expect(try context.inject(byName: "released") as Pruned !== held)
    }
}
