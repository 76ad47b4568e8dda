/// The options one graph sets for itself, apart from ``StitcherConfiguration``'s
/// process-wide values.
///
/// An option left nil follows the process-wide value, read when it is used; the static
/// properties of ``StitcherConfiguration`` are thus the defaults of every graph. Set per
/// graph through ``DependencyGraph/Context/configuration``; scopes opened over a graph
/// follow it.
///
/// ```swift
/// let graph = DependencyGraph.Context.isolated()
/// graph.configuration.runtimeCycleDetectionAvailability = .never
/// graph.configuration.autoCleanupEnabled = false
/// ```
public struct GraphConfiguration: Hashable, Sendable {
    /// Whether registrations are indexed by locator (see ``StitcherConfiguration/isIndexingEnabled``).
    public var isIndexingEnabled: Bool?
    /// About how many registrations the graph holds (see
    /// ``StitcherConfiguration/approximateDependencyCount``).
    public var approximateDependencyCount: Int?
    /// Whether released shared instances are pruned on graph changes (see
    /// ``StitcherConfiguration/autoCleanupEnabled``).
    public var autoCleanupEnabled: Bool?
    /// When cycles of `.instance` dependencies are detected (see
    /// ``StitcherConfiguration/runtimeCycleDetectionAvailability``).
    public var runtimeCycleDetectionAvailability: StitcherConfiguration.RuntimeCycleDetectionAvailability?

    /// A configuration that sets nothing: every option follows the process-wide value.
    public init(
        isIndexingEnabled: Bool? = nil,
        approximateDependencyCount: Int? = nil,
        autoCleanupEnabled: Bool? = nil,
        runtimeCycleDetectionAvailability: StitcherConfiguration.RuntimeCycleDetectionAvailability? = nil
    ) {
        self.isIndexingEnabled = isIndexingEnabled
        self.approximateDependencyCount = approximateDependencyCount
        self.autoCleanupEnabled = autoCleanupEnabled
        self.runtimeCycleDetectionAvailability = runtimeCycleDetectionAvailability
    }
}
