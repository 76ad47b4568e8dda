import Stitcher
import StitcherTesting
import Testing

private final class Loop: @unchecked Sendable {
    init() throws { _ = try DependencyGraph.inject() as Loop }
}

/// Configuration per graph: options a graph sets apply to it alone; the rest follow
/// `StitcherConfiguration`.
@Suite(.isolatedDependencyGraph)
struct GraphConfigurationTests {
    @Test func aNewGraphFollowsTheProcessWideConfiguration() {
        let graph = DependencyGraph.Context.isolated()
        #expect(graph.configuration == GraphConfiguration())
        #expect(graph.configuration.runtimeCycleDetectionAvailability == nil)
    }

    @Test func cycleDetectionCanBeTurnedOffForOneGraph() throws {
        let unchecked = DependencyGraph.Context.isolated()
        unchecked.configuration.runtimeCycleDetectionAvailability = .never
        let checked = DependencyGraph.Context.isolated()
        for graph in [unchecked, checked] {
            graph.activate(DependencyContainer { Dependency { try Loop() }.scope(.instance) })
        }
        // Detected: a cycle error naming the loop.
        #expect(throws: InjectionError.self) { try checked.inject() as Loop }
        // Not detected: the stack guard stops the recursion instead.
        #expect(throws: ResolutionTooDeep.self) { try unchecked.inject() as Loop }
        #expect(unchecked.configuration.runtimeCycleDetectionAvailability == .never)
    }

    @Test func optionsAreKeptPerGraph() throws {
        let graph = DependencyGraph.Context.isolated()
        graph.configuration = GraphConfiguration(isIndexingEnabled: false, approximateDependencyCount: 8, autoCleanupEnabled: false)
        #expect(graph.configuration.isIndexingEnabled == false)
        #expect(graph.configuration.approximateDependencyCount == 8)
        #expect(DependencyGraph.Context.isolated().configuration.autoCleanupEnabled == nil)
        // An unindexed graph still finds its registrations.
        graph.activate(DependencyContainer { Dependency { "value" }.named("x") })
        #expect(try graph.inject(byName: "x") as String == "value")
    }
}
