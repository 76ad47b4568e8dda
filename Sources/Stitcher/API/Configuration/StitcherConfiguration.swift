import Atomics

/// Settings that change how the dependency graph indexes, stores and checks dependencies.
///
/// Set them once, at launch, before activating containers.
///
/// ```swift
/// StitcherConfiguration.approximateDependencyCount = 500
/// StitcherConfiguration.runtimeCycleDetectionAvailability = .always
/// ```
public enum StitcherConfiguration {
    /// When runtime dependency cycle detection is on.
    public enum RuntimeCycleDetectionAvailability: Hashable, Sendable {
        /// In every build.
        case always
        /// Never for `.instance` dependencies: a cycle of them recurses until the stack
        /// guard stops it with ``ResolutionTooDeep``. Stored scopes are always checked,
        /// since their creation would otherwise wait for itself.
        case never
        /// Only in builds compiled with the `DEBUG` condition.
        case debugOnly

        var isEnabled: Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .debugOnly:
                #if DEBUG
                return true
                #else
                return false
                #endif
            }
        }
    }

    private struct Values {
        var isIndexingEnabled = true
        var approximateDependencyCount = 64
        var autoCleanupEnabled = true
        var runtimeCycleDetectionAvailability = RuntimeCycleDetectionAvailability.debugOnly
    }

    private static let values = Protected(Values())

    /// Whether registrations are indexed by locator on activation. Unindexed lookups scan
    /// every active registration: only useful to save memory in very small graphs.
    public static var isIndexingEnabled: Bool {
        get { values.current.isIndexingEnabled }
        set { values.withLock { $0.isIndexingEnabled = newValue } }
    }

    /// About how many registrations the app defines; used to size the index up front.
    public static var approximateDependencyCount: Int {
        get { values.current.approximateDependencyCount }
        set { values.withLock { $0.approximateDependencyCount = max(0, newValue) } }
    }

    /// Whether stored instances that were released elsewhere are pruned on graph changes.
    public static var autoCleanupEnabled: Bool {
        get { values.current.autoCleanupEnabled }
        set { values.withLock { $0.autoCleanupEnabled = newValue } }
    }

    /// When runtime dependency cycle detection is on. Defaults to `.debugOnly`, as in
    /// Stitcher 1.x.
    ///
    /// A cycle of `.instance` dependencies is reported as an ``InjectionError`` naming the
    /// whole path while detection is on; while it is off (in a release build, by default),
    /// the same cycle recurses until the stack guard stops it with ``ResolutionTooDeep``,
    /// and an injection pays nothing for the check. Stored scopes (`.singleton`, `.shared`,
    /// `.scoped`) are always checked, since their creation would otherwise wait for itself.
    ///
    /// ```swift
    /// // Report `.instance` cycles in release builds too.
    /// StitcherConfiguration.runtimeCycleDetectionAvailability = .always
    /// ```
    public static var runtimeCycleDetectionAvailability: RuntimeCycleDetectionAvailability {
        get { values.current.runtimeCycleDetectionAvailability }
        set {
            values.withLock { $0.runtimeCycleDetectionAvailability = newValue }
            detectsCycles = newValue.isEnabled
        }
    }
}
