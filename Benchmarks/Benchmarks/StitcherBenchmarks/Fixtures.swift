import Stitcher

/// Types resolved by the benchmarks: one set per workload, so that workloads don't share
/// registrations.
final class SingletonService: @unchecked Sendable { init() {} }
final class SecondSingleton: @unchecked Sendable { init() {} }
final class NamedSingleton: @unchecked Sendable { init() {} }
final class TransientService: @unchecked Sendable { init() {} }
final class ParameterizedService: @unchecked Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}
final class LeafB: @unchecked Sendable { init() {} }
final class NodeA: @unchecked Sendable {
    let b: LeafB
    init(b: LeafB) { self.b = b }
}
final class LeafC: @unchecked Sendable { init() {} }
final class GraphRoot: @unchecked Sendable {
    let a: NodeA, c: LeafC
    init(a: NodeA, c: LeafC) {
        self.a = a
        self.c = c
    }
}
final class WideService: @unchecked Sendable { init() {} }
final class WideWidget: @unchecked Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}
final class WrapperService: @unchecked Sendable { init() {} }

/// A holder of an `@Injected` property and of plain stored properties, for workload 9.
///
/// A property wrapper's storage is always a `var`: reading it for a call that takes the
/// value retains it, as for any `var`, where a `let` can lend its value without a retain.
/// Both plain forms are measured.
final class PropertyHolder: @unchecked Sendable {
    @Injected var injected: WrapperService
    let stored = WrapperService()
    var storedVariable = WrapperService()
}

/// The number of named registrations in workloads 6 and 7.
let wideCount = 100_000
let wideNames: [String] = (0..<wideCount).map { "service-\($0)" }

/// The container of workloads 1 to 5, 8 and 9.
let stitcherContainer = DependencyContainer {
    Dependency { SingletonService() }.scope(.singleton)
    Dependency { SecondSingleton() }.scope(.singleton)
    Dependency { NamedSingleton() }.named("named-singleton").scope(.singleton)
    Dependency { TransientService() }.scope(.instance)
    Dependency { (value: Int) in ParameterizedService(value: value) }.scope(.instance)
    Dependency { LeafB() }.scope(.instance)
    Dependency { NodeA(b: try DependencyGraph.inject()) }.scope(.instance)
    Dependency { LeafC() }.scope(.instance)
    Dependency { GraphRoot(a: try DependencyGraph.inject(), c: try DependencyGraph.inject()) }.scope(.instance)
    Dependency { WrapperService() }.scope(.singleton)
    Dependency(autowiring: AutowiredService.init).scope(.instance)
}

/// Workload 12: a transient whose three parameters are injected by autowiring.
final class AutowiredService: @unchecked Sendable {
    let first: SingletonService, second: SecondSingleton, wrapper: WrapperService
    init(first: SingletonService, second: SecondSingleton, wrapper: WrapperService) {
        self.first = first
        self.second = second
        self.wrapper = wrapper
    }
}

/// A container of `wideCount` named registrations whose factories capture their index.
func makeCapturingContainer() -> DependencyContainer {
    DependencyContainer {
        for (i, name) in wideNames.enumerated() { Dependency(named: name) { WideWidget(value: i) } }
    }
}

/// A container of `wideCount` named registrations.
func makeWideContainer() -> DependencyContainer {
    DependencyContainer {
        for name in wideNames {
            Dependency { WideService() }.named(name).scope(.singleton)
        }
    }
}
