/// Where the graph keeps a registration's instances: the one decision every lookup path
/// (the direct one, the general one, the asynchronous one) reads, made once per
/// registration from its ``DependencyScope``.
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

    /// Whether instances of this lifetime outlive the injection that built them.
    var storesInstances: Bool { self != .transient }

    /// Whether an instance of this lifetime kept by the graph would keep a `.scoped`
    /// instance it depends on past the end of its scope (a captive dependency).
    var outlivesScopes: Bool { self == .shared || self == .published }
}
