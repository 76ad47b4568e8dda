import Benchmark
import OpaqueUse
import Stitcher

// The injection shapes apps write most (issue 17's table), each next to the hand-written
// code it replaces; `Profile shapes` measures the same pairs interleaved, for ratios.

protocol BenchService: AnyObject {}
final class BenchServiceImpl: BenchService, @unchecked Sendable {}
protocol BenchFactory: AnyObject {}
final class BenchFactoryImpl: BenchFactory, @unchecked Sendable {}
protocol BenchValue { var tag: Int { get } }
struct BenchValueImpl: BenchValue { var tag = 1 }
final class BenchOptional: @unchecked Sendable {}
protocol BenchListed: AnyObject {}
final class BenchFirst: BenchListed, @unchecked Sendable {}
final class BenchSecond: BenchListed, @unchecked Sendable {}
final class BenchWidget: @unchecked Sendable {
    let value: Int
    init(_ value: Int = 0) { self.value = value }
}

/// Registers the shapes' dependencies and their benchmarks.
func shapeBenchmarks() {
    DependencyGraph.activate(
        DependencyContainer {
            Dependency { BenchServiceImpl() }.conforms(to: BenchService.self).scope(.singleton)
            Dependency { BenchFactoryImpl() }.conforms(to: BenchFactory.self).scope(.instance)
            Dependency { BenchValueImpl() }.conforms(to: BenchValue.self)
            Dependency { BenchOptional() }.scope(.singleton)
            Dependency { BenchFirst() }.conforms(to: BenchListed.self).scope(.singleton)
            Dependency { BenchSecond() }.conforms(to: BenchListed.self).scope(.singleton)
            Dependency { BenchWidget() }.scope(.instance)
            Dependency { (value: Int) in BenchWidget(value) }.scope(.instance)
        })
    let service: any BenchService = BenchServiceImpl()
    let serviceClosure: () -> any BenchService = { service }
    Benchmark("S1 singleton by its protocol: baseline stored closure") { benchmark in
        for _ in benchmark.scaledIterations { use(serviceClosure()) }
    }
    Benchmark("S1 singleton by its protocol: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { use(try DependencyGraph.inject() as any BenchService) }
    }
    Benchmark("S2 transient by its protocol: baseline initializer") { benchmark in
        for _ in benchmark.scaledIterations { use(BenchFactoryImpl() as any BenchFactory) }
    }
    Benchmark("S2 transient by its protocol: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { use(try DependencyGraph.inject() as any BenchFactory) }
    }
    let valueClosure: () -> any BenchValue = { BenchValueImpl() }
    Benchmark("S3 value behind a protocol: baseline closure") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(valueClosure().tag) }
    }
    Benchmark("S3 value behind a protocol: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { blackHole((try DependencyGraph.inject() as any BenchValue).tag) }
    }
    let optional = BenchOptional()
    let optionalClosure: () -> BenchOptional? = { optional }
    Benchmark("S4 optional request: baseline stored closure") { benchmark in
        for _ in benchmark.scaledIterations { use(optionalClosure()!) }
    }
    Benchmark("S4 optional request: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { use((try DependencyGraph.inject() as BenchOptional?)!) }
    }
    // What hand-written code does for `[any P]`: a new array of the same two singletons.
    let first = BenchFirst()
    let second = BenchSecond()
    let listClosure: () -> [any BenchListed] = { [first, second] }
    Benchmark("S5 [P] of two singletons: baseline new array of the stored singletons") { benchmark in
        for _ in benchmark.scaledIterations { use(listClosure()[1]) }
    }
    Benchmark("S5 [P] of two singletons: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { use((try DependencyGraph.inject() as [any BenchListed])[1]) }
    }
    Benchmark("S6 with and without a parameter, injected without: baseline initializer") { benchmark in
        for _ in benchmark.scaledIterations { use(BenchWidget()) }
    }
    Benchmark("S6 with and without a parameter, injected without: Stitcher") { benchmark in
        for _ in benchmark.scaledIterations { use(try DependencyGraph.inject() as BenchWidget) }
    }
}
