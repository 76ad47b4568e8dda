import Dispatch
import OpaqueUse
import Stitcher

/// Prints what a graph you hold costs: making one (`Context.isolated()`), activating a
/// one-registration container in it and injecting its singleton, start to end; then a
/// singleton injected from a held graph, next to the process-wide graph's.
func printHeldGraphCosts() throws {
    let container = DependencyContainer { Dependency { Single() }.scope(.singleton) }
    var create: [Double] = []
    for _ in 0..<31 {
        create.append(
            try nanoseconds(500) {
                let graph = DependencyGraph.Context.isolated()
                graph.activate(container)
                return try graph.inject() as Single
            })
    }
    let held = DependencyGraph.Context.isolated()
    held.activate(container)
    let injectHeld = try (0..<31).map { _ in try nanoseconds(20_000) { try held.inject() as Single } }
    print(
        String(
            format: "held graph: isolated() + activate + inject a singleton %.0f ns; inject from a held graph %.1f ns",
            median(create), median(injectHeld)))
}
