import Dependencies

// swift-dependencies' forms of the workloads it can express: a live value read through
// `@Dependency` (built once, then cached by swift-dependencies) for workloads 1 and 9, and
// `withDependencies` around a request for workload 11 (in ScopeWorkload). It has no
// transients, names, parameters or autowiring: workloads 2 to 7 and 12 have no row for it.

private enum SingletonServiceKey: DependencyKey { static let liveValue = SingletonService() }
private enum WrapperServiceKey: DependencyKey { static let liveValue = WrapperService() }

extension DependencyValues {
    var singletonService: SingletonService {
        get { self[SingletonServiceKey.self] }
        set { self[SingletonServiceKey.self] = newValue }
    }
    var wrapperService: WrapperService {
        get { self[WrapperServiceKey.self] }
        set { self[WrapperServiceKey.self] = newValue }
    }
}

/// Workload 1: a `@Dependency` made and read for each injection. (In a file of its own:
/// Stitcher's `Dependency` and `Dependencies` would be ambiguous beside it.)
@inline(__always)
func swiftDependenciesSingleton() -> SingletonService {
    @Dependency(\.singletonService) var service
    return service
}

/// Workload 9's holder with a `@Dependency` property.
final class DependencyHolder: @unchecked Sendable {
    @Dependency(\.wrapperService) var dependency
}
