import Dispatch
import OpaqueUse
import ScopeWorkload
import Stitcher
import Swinject

// `Profile ratios`: each workload of the Performance article's table next to its baseline, in short
// alternating bursts. This VM switches between a fast and a slow mode every few seconds;
// package-benchmark measures one row after the other, so a row and its baseline can land
// in different modes. Here a burst of each takes about a millisecond, and the ratio is
// taken per pair of bursts, then the median over many pairs. Swinject and
// swift-dependencies, where they do the same work, run in the same rounds.

/// Nanoseconds per call of `body` over `count` calls, each result passed to `use(_:)`.
@inline(__always)
func nanoseconds(_ count: Int, _ body: () throws -> AnyObject) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { use(try body()) }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Prints the medians of the baseline, of Stitcher and of their ratio over `rounds` rounds
/// of one burst each, rotating which runs first; with Swinject's and swift-dependencies'
/// too when given (each as a factor of Stitcher's time).
@inline(__always)
func compare(
    _ name: String, burst: Int, rounds: Int = 61,
    baseline: () throws -> AnyObject, stitcher: () throws -> AnyObject, swinject: (() -> AnyObject)? = nil,
    swiftDependencies: (() -> AnyObject)? = nil
) rethrows {
    var base: [Double] = []
    var ours: [Double] = []
    var ratios: [Double] = []
    var swinjects: [Double] = []
    var dependencies: [Double] = []
    _ = try nanoseconds(burst, baseline)
    _ = try nanoseconds(burst, stitcher)
    for round in 0..<rounds {
        var b = 0.0
        var s = 0.0
        // Each closure is called where it is named, so that the baseline and Stitcher are
        // specialized into their loops as before the other libraries joined the rounds
        // (behind a table of optional closures, every baseline read 1–7 ns slower).
        for turn in 0..<4 {
            switch (round + turn) % 4 {
            case 0: b = try nanoseconds(burst, baseline)
            case 1: s = try nanoseconds(burst, stitcher)
            case 2: if let swinject { swinjects.append(nanoseconds(burst / 20, swinject)) }
            default: if let swiftDependencies { dependencies.append(nanoseconds(burst / 20, swiftDependencies)) }
            }
        }
        base.append(b)
        ours.append(s)
        ratios.append(s / b)
    }
    var row = [
        name, String(format: "%.1f", median(base)), String(format: "%.1f", median(ours)),
        String(format: "%.2f×", median(ratios)),
    ]
    for times in [swinjects, dependencies] {
        // As a factor of Stitcher's median: the other libraries run 20 times fewer calls a
        // round, and their round's Stitcher burst may precede or follow them.
        row += times.isEmpty ? ["—", "—"] : [String(format: "%.0f", median(times)), String(format: "%.1f×", median(times) / median(ours))]
    }
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
    let dependencyHolder = SingleDependencyHolder()
    var index = 0
    let swinject = makeSwinjectContainer()
    let wideSwinject = Container()
    for name in wideNames {
        wideSwinject.register(Wide.self, name: name) { _ in Wide() }.inObjectScope(.container)
    }
    print(
        "| workload | baseline | Stitcher | Stitcher ÷ baseline | Swinject | Swinject ÷ Stitcher "
            + "| swift-dependencies | swift-dependencies ÷ Stitcher |")
    print("| - | - | - | - | - | - | - | - |")
    try compare(
        "1 singleton by type (stored closure)", burst: 20_000,
        baseline: { storedClosure() }, stitcher: { try DependencyGraph.inject(byType: Single.self) as Single },
        swinject: { swinject.resolve(Single.self)! },
        swiftDependencies: { swiftDependenciesSingle() })
    try compare(
        "2 transient (initializer)", burst: 20_000,
        baseline: { Transient() }, stitcher: { try DependencyGraph.inject(byType: Transient.self) },
        swinject: { swinject.resolve(Transient.self)! })
    try compare(
        "3 graph Root(A(B), C) (initializers)", burst: 5_000,
        baseline: { Root(a: NodeA(b: LeafB()), c: LeafC()) }, stitcher: { try DependencyGraph.inject(byType: Root.self) },
        swinject: { swinject.resolve(Root.self)! })
    try compare(
        "4 singleton by name (dictionary)", burst: 20_000,
        baseline: { dictionary["named"]! }, stitcher: { try DependencyGraph.inject(byName: "named") as Single },
        swinject: { swinject.resolve(Single.self, name: "named")! })
    try compare(
        "5 transient with an Int (initializer)", burst: 20_000,
        baseline: { Param(42) }, stitcher: { try DependencyGraph.inject(byType: Param.self, 42) },
        swinject: { swinject.resolve(Param.self, argument: 42)! })
    try compare(
        "6 one of 100k names (dictionary)", burst: 20_000,
        baseline: {
            index = index == wideNames.count - 1 ? 0 : index + 1
            return wideDictionary[wideNames[index]]!
        },
        stitcher: {
            index = index == wideNames.count - 1 ? 0 : index + 1
            return try DependencyGraph.inject(byName: wideNames[index]) as Wide
        },
        swinject: {
            index = index == wideNames.count - 1 ? 0 : index + 1
            return wideSwinject.resolve(Wide.self, name: wideNames[index])!
        })
    try compare(
        "12 autowired transient, 3 parameters (initializer, each injected)", burst: 10_000,
        baseline: {
            Autowired(single: try DependencyGraph.inject(), other: try DependencyGraph.inject(), shared: try DependencyGraph.inject())
        },
        stitcher: { try DependencyGraph.inject(byType: Autowired.self) },
        swinject: { swinject.resolve(Autowired.self)! })
    try compareDeferredInjection(storedClosure, swinject: swinject)
    try compareChildGraphs()
    compareActivation()
    // Workload 10: a singleton isolated to the main actor, injected on the main actor (this
    // runs on the main thread), next to a stored closure returning one.
    DependencyGraph.activate(DependencyContainer { Dependency { @MainActor in MainModel() }.scope(.singleton) })
    let mainModel = MainActor.assumeIsolated { MainModel() }
    let mainClosure: () -> MainModel = { mainModel }
    try compare(
        "10 main-actor singleton on the main actor (stored closure)", burst: 20_000,
        baseline: { mainClosure() }, stitcher: { try DependencyGraph.inject(byType: MainModel.self) as MainModel })
    DependencyGraph.activate(scopeWorkloadContainer())
    let processClock = ProcessClock()
    try compare(
        "11 request scope: 5 scoped + 1 singleton, teardown (struct)", burst: 2_000,
        baseline: { handWrittenRequest(clock: processClock) }, stitcher: { try stitcherRequest() },
        swiftDependencies: { swiftDependenciesRequest() })
    try printHeldGraphCosts()
    compare(
        "9 @Injected read (stored let)", burst: 50_000,
        baseline: { properties.stored }, stitcher: { properties.injected }, swiftDependencies: { dependencyHolder.single })
    compare(
        "9 @Injected read (stored var)", burst: 50_000,
        baseline: { properties.storedVariable }, stitcher: { properties.injected }, swiftDependencies: { dependencyHolder.single })
}

/// A main-actor type (workload 10).
@MainActor private final class MainModel {}

/// The registrations of workloads 1 to 5 in Swinject, as in the Stitcher container above.
private func makeSwinjectContainer() -> Container {
    let container = Container()
    container.register(Single.self) { _ in Single() }.inObjectScope(.container)
    container.register(Single.self, name: "named") { _ in Single() }.inObjectScope(.container)
    container.register(Other.self) { _ in Other() }.inObjectScope(.container)
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.container)
    container.register(Autowired.self) { resolver in
        Autowired(single: resolver.resolve(Single.self)!, other: resolver.resolve(Other.self)!, shared: resolver.resolve(Shared.self)!)
    }.inObjectScope(.transient)
    container.register(Transient.self) { _ in Transient() }.inObjectScope(.transient)
    container.register(Param.self) { (_, value: Int) in Param(value) }.inObjectScope(.transient)
    container.register(LeafB.self) { _ in LeafB() }.inObjectScope(.transient)
    container.register(NodeA.self) { resolver in NodeA(b: resolver.resolve(LeafB.self)!) }.inObjectScope(.transient)
    container.register(LeafC.self) { _ in LeafC() }.inObjectScope(.transient)
    container.register(Root.self) { resolver in
        Root(a: resolver.resolve(NodeA.self)!, c: resolver.resolve(LeafC.self)!)
    }.inObjectScope(.transient)
    return container
}

/// Milliseconds that `body` takes; what it returns is released after the clock stops.
private func milliseconds(_ body: () -> Any) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let kept = body()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    withExtendedLifetime(kept) {}
    return elapsed
}

/// Workload 7: filling a `[String: closure]` of `wideNames` next to activating a container
/// of them in an empty graph; then the form real code writes (factories capturing their
/// index, `Dependency(named:)`) activated into the process-wide graph beside this process's
/// other container, next to the same capturing fill. No teardown is timed.
func compareActivation() {
    compareActivation(
        "7 activate 100k names, ms (`[String: closure]`)",
        dictionary: {
            var closures: [String: () -> Wide] = [:]
            for name in wideNames { closures[name] = { Wide() } }
            return closures
        },
        stitcher: {
            var elapsed = 0.0
            DependencyGraph.withIsolatedGraph { elapsed = milliseconds { DependencyGraph.activate(wideContainer()) } }
            return elapsed
        },
        swinject: {
            let container = Container()
            for name in wideNames { container.register(Wide.self, name: name) { _ in Wide() }.inObjectScope(.container) }
            return container
        })
    compareActivation(
        "7 capturing factories into the process-wide graph, ms (capturing `[String: closure]`)",
        dictionary: {
            var closures: [String: () -> Widget] = [:]
            for (i, name) in wideNames.enumerated() { closures[name] = { Widget(value: i) } }
            return closures
        },
        stitcher: {
            let container = capturingContainer()
            let elapsed = milliseconds { DependencyGraph.activate(container) }
            DependencyGraph.deactivate(container)
            return elapsed
        },
        swinject: {
            let container = Container()
            for (i, name) in wideNames.enumerated() {
                container.register(Widget.self, name: name) { _ in Widget(value: i) }.inObjectScope(.container)
            }
            return container
        })
}

/// Prints a row of activation times: each of `pairs` rounds times the three in turn.
private func compareActivation(
    _ label: String, pairs: Int = 15, dictionary: () -> Any, stitcher: () -> Double, swinject: () -> Any
) {
    var base: [Double] = []
    var ours: [Double] = []
    var ratios: [Double] = []
    var theirs: [Double] = []
    var factors: [Double] = []
    for _ in 0..<pairs {
        let b = milliseconds(dictionary)
        let s = stitcher()
        let w = milliseconds(swinject)
        base.append(b)
        ours.append(s)
        ratios.append(s / b)
        theirs.append(w)
        factors.append(w / s)
    }
    let row = [
        label, String(format: "%.1f", median(base)),
        String(format: "%.1f", median(ours)), String(format: "%.2f×", median(ratios)),
        String(format: "%.1f", median(theirs)), String(format: "%.1f×", median(factors)),
    ]
    print("| " + row.joined(separator: " | ") + " |")
}
