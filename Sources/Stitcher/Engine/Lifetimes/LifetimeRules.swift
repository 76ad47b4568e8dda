/// Everything one ``InstanceLifetime`` decides: how an instance is reached (synchronously
/// and from asynchronous code), what the index's direct path may read without asking, and
/// the facts verification, activation and inspection ask about it. One conforming type per
/// lifetime; `InstanceLifetime.rules` is the one switch that names them.
///
/// Adding a lifetime is a case of `InstanceLifetime` (and the `DependencyScope` that maps
/// to it), one type conforming to this protocol, and its line in `rules` (the compiler
/// points at it). Nothing else switches on a lifetime: the direct path answers
/// a new lifetime's lookups through the general path (`directKind` is `.none` by default)
/// until a direct kind is worth adding. CONTRIBUTING.md walks through it.
protocol LifetimeRules {
    /// What the registration's index entry keeps of its instances: nil when it keeps none
    /// (they are not stored, or something else, such as a dependency scope, keeps them).
    static var entryKeeps: EntryKeeping? { get }

    /// Whether an instance is built in, and kept by, the innermost open dependency scope.
    static var needsOpenScope: Bool { get }

    /// Whether instances outlive the injection that built them (derived: see the extension).
    /// Requirements, not only extension members, so that asking through `rules` calls each
    /// type's own answer, a constant, instead of generic code that asks two more witnesses
    /// (every nested `.scoped` injection asks, in its captive-dependency check).
    static var storesInstances: Bool { get }

    /// Whether an instance kept by the graph would keep a `.scoped` instance it depends on
    /// past the end of its scope (derived: see the extension).
    static var outlivesScopes: Bool { get }

    /// The scope `record` was declared with, for errors, events and reports.
    static func declaredScope(of record: RegistrationRecord) -> DependencyScope

    /// How the direct path answers a request, without parameters, for the type `record`
    /// produces (or one of its superclasses); `.none` sends it to the general path.
    static func directKind(of record: RegistrationRecord) -> DirectLookup.Kind

    /// How the direct path answers a request for a protocol `record`'s instances are
    /// presented as through a view; `isViewedAlias` tells whether it is the first such
    /// protocol (the one a stored instance keeps a view for). `.none`: the general path.
    static func viewKind(isViewedAlias: Bool) -> DirectLookup.Kind

    /// The instance of `entry` for `arguments`: read from where this lifetime keeps it, or
    /// built (once, for a stored one).
    ///
    /// The caller may hold `entry` unretained, alive for as long as the snapshot the
    /// calling thread holds (the direct path does): rules that touch the entry after its
    /// factory returns (whose injections may replace that snapshot) retain it first.
    static func instance(
        of entry: Unmanaged<IndexEntry>, in graph: GraphEngine, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject

    /// The instance of `entry` for `arguments`, built by its asynchronous factory when
    /// there is none (`graph.asyncBuild` starts every such build).
    static func instanceAsync(of entry: IndexEntry, in graph: GraphEngine, _ arguments: InjectionArguments) async throws
        -> AnyObject
}

/// How an index entry holds the instances it keeps.
enum EntryKeeping: Sendable {
    /// A strong reference: the instance lives as long as the entry (or until released).
    case strongly
    /// A weak reference: the instance lives while something else holds it.
    case weakly
}

extension LifetimeRules {
    static func directKind(of record: RegistrationRecord) -> DirectLookup.Kind { .none }
    static func viewKind(isViewedAlias: Bool) -> DirectLookup.Kind { .none }

    /// Whether instances outlive the injection that built them.
    static var storesInstances: Bool { entryKeeps != nil || needsOpenScope }

    /// Whether an instance kept by the graph would keep a `.scoped` instance it depends on
    /// past the end of its scope (a captive dependency).
    static var outlivesScopes: Bool { entryKeeps != nil }
}

extension InstanceLifetime {
    /// The rules of this lifetime: the one switch that names each lifetime's type.
    @inline(__always)
    var rules: any LifetimeRules.Type {
        switch self {
        case .transient: TransientLifetime.self
        case .shared: SharedLifetime.self
        case .published: PublishedLifetime.self
        case .scoped: ScopedLifetime.self
        }
    }

    /// See `LifetimeRules.storesInstances`.
    var storesInstances: Bool { rules.storesInstances }

    /// See `LifetimeRules.outlivesScopes`.
    var outlivesScopes: Bool { rules.outlivesScopes }

    /// See `LifetimeRules.entryKeeps`.
    var entryKeeps: EntryKeeping? { rules.entryKeeps }

    /// See `LifetimeRules.needsOpenScope`.
    var needsOpenScope: Bool { rules.needsOpenScope }
}
