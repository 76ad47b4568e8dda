import Dependencies

// Workloads 1 and 9 as swift-dependencies writes them: the singleton a live value (built
// once, then cached by swift-dependencies), read through `@Dependency(\.single)`. In a file
// of its own: Stitcher's `Dependency` and `Dependencies` would be ambiguous beside it.

private enum SingleKey: DependencyKey { static let liveValue = Single() }

extension DependencyValues {
    fileprivate var single: Single {
        get { self[SingleKey.self] }
        set { self[SingleKey.self] = newValue }
    }
}

/// Workload 1: a `@Dependency` made and read for each injection.
@inline(__always)
func swiftDependenciesSingle() -> Single {
    @Dependency(\.single) var single
    return single
}

/// Workload 9: a `@Dependency` property of an object, read.
final class SingleDependencyHolder: @unchecked Sendable {
    @Dependency(\.single) var single
}
