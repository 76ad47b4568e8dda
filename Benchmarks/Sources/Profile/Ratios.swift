import Dispatch
import OpaqueUse
import Stitcher

// `Profile ratios`: each workload of the README's table next to its baseline, in short
// alternating bursts. This VM switches between a fast and a slow mode every few seconds;
// package-benchmark measures one row after the other, so a row and its baseline can land
// in different modes. Here a burst of each takes about a millisecond, and the ratio is
// taken per pair of bursts, then the median over many pairs.

/// Nanoseconds per call of `body` over `count` calls, each result passed to `use(_:)`.
@inline(__always)
private func nanoseconds(_ count: Int, _ body: () throws -> AnyObject) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { use(try body()) }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Prints the medians of the baseline, of Stitcher and of their ratio over `pairs` pairs
/// of bursts, alternating which runs first.
@inline(__always)
private func compare(
    _ name: String, burst: Int, pairs: Int = 61,
    baseline: () throws -> AnyObject, stitcher: () throws -> AnyObject
) rethrows {
    var base: [Double] = [], ours: [Double] = [], ratios: [Double] = []
    _ = try nanoseconds(burst, baseline)
    _ = try nanoseconds(burst, stitcher)
    for pair in 0..<pairs {
        let b: Double, s: Double
        if pair.isMultiple(of: 2) {
            b = try nanoseconds(burst, baseline)
            s = try nanoseconds(burst, stitcher)
        } else {
            s = try nanoseconds(burst, stitcher)
            b = try nanoseconds(burst, baseline)
        }
        base.append(b)
        ours.append(s)
        ratios.append(s / b)
    }
    let row = [name, String(format: "%.1f", median(base)), String(format: "%.1f", median(ours)),
               String(format: "%.2f×", median(ratios))]
    print("| " + row.joined(separator: " | ") + " |")
}

/// Runs every comparison and prints a Markdown table.
func printRatios() throws {
    let shared = Single()
    let storedClosure: () -> Single = { shared }
    let dictionary: [String: Single] = ["named": try DependencyGraph.inject(byName: "named")]
    var wideDictionary: [String: Wide] = [:]
    for name in wideNames { wideDictionary[name] = Wide() }
    DependencyGraph.activate(wideContainer())
    final class Properties: @unchecked Sendable {
        @Injected var injected: Single
        let stored = Single()
        var storedVariable = Single()
    }
    let properties = Properties()
    _ = properties.injected
    var index = 0
    print("| workload | baseline ns | Stitcher ns | ratio |")
    print("| - | - | - | - |")
    try compare("1 singleton by type vs stored closure", burst: 20_000,
                baseline: { storedClosure() }, stitcher: { try DependencyGraph.inject(byType: Single.self) })
    try compare("2 transient vs initializer", burst: 20_000,
                baseline: { Transient() }, stitcher: { try DependencyGraph.inject(byType: Transient.self) })
    try compare("3 graph vs initializers", burst: 5_000,
                baseline: { Root(a: NodeA(b: LeafB()), c: LeafC()) }, stitcher: { try DependencyGraph.inject(byType: Root.self) })
    try compare("4 singleton by name vs dictionary", burst: 20_000,
                baseline: { dictionary["named"]! }, stitcher: { try DependencyGraph.inject(byName: "named") as Single })
    try compare("5 transient with Int vs initializer", burst: 20_000,
                baseline: { Param(42) }, stitcher: { try DependencyGraph.inject(byType: Param.self, 42) })
    try compare("6 one of 100k names vs dictionary", burst: 20_000,
                baseline: {
                    index = index == wideNames.count - 1 ? 0 : index + 1
                    return wideDictionary[wideNames[index]]!
                },
                stitcher: {
                    index = index == wideNames.count - 1 ? 0 : index + 1
                    return try DependencyGraph.inject(byName: wideNames[index]) as Wide
                })
    compareActivation()
    compare("9 @Injected vs stored let", burst: 50_000,
            baseline: { properties.stored }, stitcher: { properties.injected })
    compare("9 @Injected vs stored var", burst: 50_000,
            baseline: { properties.storedVariable }, stitcher: { properties.injected })
}

/// Workload 7: filling a `[String: closure]` of `wideNames` next to activating a container
/// of them in an empty graph; neither teardown is timed.
private func compareActivation(pairs: Int = 15) {
    var base: [Double] = [], ours: [Double] = [], ratios: [Double] = []
    for _ in 0..<pairs {
        var start = DispatchTime.now().uptimeNanoseconds
        var closures: [String: () -> Wide] = [:]
        for name in wideNames { closures[name] = { Wide() } }
        let b = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        withExtendedLifetime(closures) {}
        var s = 0.0
        DependencyGraph.withIsolatedGraph {
            start = DispatchTime.now().uptimeNanoseconds
            DependencyGraph.activate(wideContainer())
            s = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        base.append(b)
        ours.append(s)
        ratios.append(s / b)
    }
    let row = ["7 activate 100k names vs dictionary fill (ms)", String(format: "%.1f", median(base)),
               String(format: "%.1f", median(ours)), String(format: "%.2f×", median(ratios))]
    print("| " + row.joined(separator: " | ") + " |")
}
