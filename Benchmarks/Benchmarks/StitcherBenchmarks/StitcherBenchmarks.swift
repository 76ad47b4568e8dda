import Benchmark
import Foundation
import OpaqueUse
import ScopeWorkload
import Stitcher
import Swinject

// Workloads are numbered as in the Performance article's table (Stitcher.docc). Each has a hand-written baseline and,
// where they apply, Swinject and swift-dependencies doing the same work.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 1_000
    )
    // Measured with the checks on: the default (`.debugOnly`) skips `.instance` cycle checks here.
    StitcherConfiguration.runtimeCycleDetectionAvailability = .always
    DependencyGraph.activate(stitcherContainer)
    let swinject = makeSwinjectContainer()

    // 1. Cached singleton by type.
    let sharedInstance = SingletonService()
    let storedClosure: () -> SingletonService = { sharedInstance }
    Benchmark("1 singleton by type: baseline stored closure") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(storedClosure()) }
    }
    Benchmark("1 singleton by type: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try DependencyGraph.inject(byType: SingletonService.self)) }
    }
    Benchmark("1 singleton by type: Swinject") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(SingletonService.self)!) }
    }
    Benchmark("1 singleton by type: swift-dependencies @Dependency live value") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swiftDependenciesSingleton()) }
    }

    // 2. Transient class by type.
    Benchmark("2 transient by type: baseline initializer") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(TransientService()) }
    }
    Benchmark("2 transient by type: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try DependencyGraph.inject(byType: TransientService.self)) }
    }
    Benchmark("2 transient by type: Swinject") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(TransientService.self)!) }
    }

    // 3. Transient graph Root(A(B), C), every node through the container.
    Benchmark("3 transient graph: baseline initializers") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(GraphRoot(a: NodeA(b: LeafB()), c: LeafC())) }
    }
    Benchmark("3 transient graph: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try DependencyGraph.inject(byType: GraphRoot.self)) }
    }
    Benchmark("3 transient graph: Swinject") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(GraphRoot.self)!) }
    }

    // 4. Cached singleton by name.
    let dictionary: [String: NamedSingleton] = ["named-singleton": NamedSingleton()]
    Benchmark("4 singleton by name: baseline dictionary") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(dictionary["named-singleton"]!) }
    }
    Benchmark("4 singleton by name: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try DependencyGraph.inject(byName: "named-singleton") as NamedSingleton)
        }
    }
    Benchmark("4 singleton by name: Swinject") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(NamedSingleton.self, name: "named-singleton")!) }
    }

    // 5. Transient with one Int parameter.
    Benchmark("5 transient with parameter: baseline initializer") { benchmark in
        for index in benchmark.scaledIterations { blackHole(ParameterizedService(value: index)) }
    }
    Benchmark("5 transient with parameter: Stitcher") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try DependencyGraph.inject(byType: ParameterizedService.self, index))
        }
    }
    Benchmark("5 transient with parameter: Swinject") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(swinject.resolve(ParameterizedService.self, argument: index)!)
        }
    }

    // 12. An autowired transient with three injected parameters, next to calling its
    // initializer with three values injected directly.
    Benchmark("12 autowired transient, 3 parameters: baseline initializer, each injected") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                AutowiredService(
                    first: try DependencyGraph.inject(), second: try DependencyGraph.inject(), wrapper: try DependencyGraph.inject()))
        }
    }
    Benchmark("12 autowired transient, 3 parameters: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try DependencyGraph.inject(byType: AutowiredService.self)) }
    }

    // 6. One of 100,000 named registrations, a different name each iteration.
    let wideDictionary = Dictionary(uniqueKeysWithValues: wideNames.map { ($0, WideService()) })
    let wideStitcher = makeWideContainer()
    DependencyGraph.activate(wideStitcher)
    let wideSwinject = makeWideSwinjectContainer()
    Benchmark("6 one of 100k names: baseline dictionary") { benchmark in
        for index in benchmark.scaledIterations { blackHole(wideDictionary[wideNames[index % wideCount]]!) }
    }
    Benchmark("6 one of 100k names: Stitcher") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try DependencyGraph.inject(byName: wideNames[index % wideCount]) as WideService)
        }
    }
    Benchmark("6 one of 100k names: Swinject") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(wideSwinject.resolve(WideService.self, name: wideNames[index % wideCount])!)
        }
    }

    // 7. Activating a container of 100,000 named registrations until every one is injectable.
    let activation = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResidentDelta],
        timeUnits: .milliseconds, warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(3), maxIterations: 10
    )
    Benchmark("7 activate 100k: baseline dictionary of closures", configuration: activation) { benchmark in
        var closures: [String: () -> WideService] = [:]
        for name in wideNames { closures[name] = { WideService() } }
        blackHole(closures)
    }
    Benchmark("7 activate 100k: Stitcher", configuration: activation) { benchmark in
        // Into an empty graph, as Swinject's container and the dictionary start empty: the
        // process-wide graph holds workload 6's registrations (see the next benchmark).
        DependencyGraph.withIsolatedGraph {
            let container = makeWideContainer()
            DependencyGraph.activate(container)
            benchmark.stopMeasurement()
            DependencyGraph.deactivate(container)
        }
    }
    Benchmark("7 activate 100k: Stitcher, next to 100k active", configuration: activation) { benchmark in
        // Publishing indexes every active registration: here twice as many.
        let container = makeWideContainer()
        DependencyGraph.activate(container)
        benchmark.stopMeasurement()
        DependencyGraph.deactivate(container)
    }
    Benchmark("7 activate 100k: Swinject", configuration: activation) { benchmark in
        blackHole(makeWideSwinjectContainer())
    }
    // The form apps write: factories that capture, named with `Dependency(named:)`, into the
    // process-wide graph beside workload 6's container.
    Benchmark("7c activate 100k capturing: baseline capturing dictionary", configuration: activation) { benchmark in
        var closures: [String: () -> WideWidget] = [:]
        for (i, name) in wideNames.enumerated() { closures[name] = { WideWidget(value: i) } }
        blackHole(closures)
    }
    Benchmark("7c activate 100k capturing: Stitcher, process-wide graph", configuration: activation) { benchmark in
        let container = makeCapturingContainer()
        DependencyGraph.activate(container)
        benchmark.stopMeasurement()
        DependencyGraph.deactivate(container)
    }

    // 8. The singleton of (1) from 2 threads at once: the same work per thread as one thread.
    let threaded = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 2,
        scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 200
    )
    Benchmark("8 baseline stored closure, 1 thread × 100k", configuration: threaded) { benchmark in
        runOnThreads(1, iterations: 100_000) { blackHole(storedClosure()) }
    }
    Benchmark("8 baseline stored closure, 2 threads × 100k", configuration: threaded) { benchmark in
        runOnThreads(2, iterations: 100_000) { blackHole(storedClosure()) }
    }
    Benchmark("8 singleton, 1 thread × 100k", configuration: threaded) { benchmark in
        runOnThreads(1, iterations: 100_000) { blackHole(try? DependencyGraph.inject(byType: SingletonService.self)) }
    }
    Benchmark("8 singleton, 2 threads × 100k", configuration: threaded) { benchmark in
        runOnThreads(2, iterations: 100_000) { blackHole(try? DependencyGraph.inject(byType: SingletonService.self)) }
    }
    // The same, each thread resolving a singleton of its own: what the engine's read path
    // costs when threads share no instance, and so no reference count.
    Benchmark("8 own singleton per thread, 1 thread × 100k", configuration: threaded) { benchmark in
        runOnThreads(1, iterations: 100_000) { thread in blackHole(try? resolveOwnSingleton(thread)) }
    }
    Benchmark("8 own singleton per thread, 2 threads × 100k", configuration: threaded) { benchmark in
        runOnThreads(2, iterations: 100_000) { thread in blackHole(try? resolveOwnSingleton(thread)) }
    }
    let synchronized = Unchecked(swinject.synchronize())
    Benchmark("8 Swinject singleton, 1 thread × 100k", configuration: threaded) { benchmark in
        runOnThreads(1, iterations: 100_000) { blackHole(synchronized.value.resolve(SingletonService.self)) }
    }
    Benchmark("8 Swinject singleton, 2 threads × 100k", configuration: threaded) { benchmark in
        runOnThreads(2, iterations: 100_000) { blackHole(synchronized.value.resolve(SingletonService.self)) }
    }

    // 9. Reading an @Injected property after its first load.
    let holder = PropertyHolder()
    blackHole(holder.injected)
    Benchmark("9 @Injected read: baseline stored property") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(holder.stored) }
    }
    Benchmark("9 @Injected read: baseline stored var property") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(holder.storedVariable) }
    }
    Benchmark("9 @Injected read: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(holder.injected) }
    }
    let dependencyHolder = DependencyHolder()
    Benchmark("9 @Injected read: swift-dependencies @Dependency") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(dependencyHolder.dependency) }
    }
    // The same reads, each passed to a function the optimizer cannot see into.
    Benchmark("9 @Injected read, opaque use: baseline stored property") { benchmark in
        for _ in benchmark.scaledIterations { use(holder.stored) }
    }
    Benchmark("9 @Injected read, opaque use: baseline stored var property") { benchmark in
        for _ in benchmark.scaledIterations { use(holder.storedVariable) }
    }
    Benchmark("9 @Injected read, opaque use: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { use(holder.injected) }
    }

    // 11. One request: open a scope, inject five scoped objects and a singleton, close the
    // scope with teardown. Allocations counted per request.
    DependencyGraph.activate(scopeWorkloadContainer())
    let processClock = ProcessClock()
    let perRequest = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds)
    Benchmark("11 request scope: baseline struct", configuration: perRequest) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(handWrittenRequest(clock: processClock)) }
    }
    Benchmark("11 request scope: Stitcher", configuration: perRequest) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try stitcherRequest()) }
    }
    Benchmark("11 request scope: swift-dependencies withDependencies", configuration: perRequest) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swiftDependenciesRequest()) }
    }

    shapeBenchmarks()
}

/// Runs `body` `iterations` times on each of `count` threads, all started together.
func runOnThreads(_ count: Int, iterations: Int, _ body: @escaping @Sendable () -> Void) {
    runOnThreads(count, iterations: iterations) { _ in body() }
}

/// Runs `body` `iterations` times on each of `count` threads, passing the thread's number.
func runOnThreads(_ count: Int, iterations: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for thread in 0..<count {
        group.enter()
        Thread.detachNewThread {
            for _ in 0..<iterations { body(thread) }
            group.leave()
        }
    }
    group.wait()
}

/// The singleton of workload 1 for thread 0, another one for thread 1.
@inline(__always)
func resolveOwnSingleton(_ thread: Int) throws -> AnyObject {
    thread == 0 ? try DependencyGraph.inject(byType: SingletonService.self) : try DependencyGraph.inject(byType: SecondSingleton.self)
}

/// Hands a value that is thread-safe but not marked `Sendable` to other threads.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
