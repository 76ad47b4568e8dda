/// Where the graph keeps a registration's instances, decided once per registration from its
/// ``DependencyScope`` and stored in one byte of its record. What each lifetime means lives
/// in its rules (`LifetimeRules`, through `rules`), which every lookup path asks.
enum InstanceLifetime: UInt8, Sendable {
    /// Not kept: a new instance for every injection (`.instance`).
    case transient
    /// Kept weakly, while something else holds it (`.shared`).
    case shared
    /// Kept strongly and published once built (`.singleton`, `.managed`).
    case published
    /// Kept strongly by the innermost open dependency scope (`.scoped`).
    case scoped

    init(_ scope: DependencyScope) {
        switch scope {
        case .instance: self = .transient
        case .shared: self = .shared
        case .singleton: self = .published
        case .managed(let provider): self = provider is ScopedLifetimeMarker ? .scoped : .published
        }
    }
}
