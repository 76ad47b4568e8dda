/// When a dependency is instantiated: at first injection, or as soon as its container is activated.
///
/// ```swift
/// Dependency { EventTracker() }
///     .scope(.singleton)
///     .eagerness(.eager)
/// ```
public enum DependencyEagerness: Hashable, Sendable {
    /// Instantiated when first injected.
    case lazy
    /// Instantiated when its container is activated (only for dependencies that take no
    /// parameters and whose scope stores instances).
    case eager
}
