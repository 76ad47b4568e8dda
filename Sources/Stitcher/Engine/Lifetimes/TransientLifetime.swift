/// `.instance`: nothing is kept, and every injection builds a new instance.
enum TransientLifetime: LifetimeRules {
    static var entryKeeps: EntryKeeping? { nil }
    static var needsOpenScope: Bool { false }

    static func declaredScope(of record: RegistrationRecord) -> DependencyScope { .instance }

    static func directKind(of record: RegistrationRecord) -> DirectLookup.Kind { .transient }

    // Every new instance is presented through a view made for it (or a template).
    static func viewKind(isViewedAlias: Bool) -> DirectLookup.Kind { .transientView }

    static func instance(
        of entry: Unmanaged<IndexEntry>, in graph: GraphEngine, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        // The frame pushed before the factory runs keeps the snapshot, and so the entry,
        // alive however the factory changes the graph; nothing touches it afterwards.
        try entry._withUnsafeGuaranteedRef { try graph.makeTransientForRules($0, arguments, state) }
    }

    static func instanceAsync(of entry: IndexEntry, in graph: GraphEngine, _ arguments: InjectionArguments) async throws
        -> AnyObject
    {
        // Nothing is found by its parameters: any parameters are taken, hashable or not,
        // and each build is distinct from every other on the resolution path.
        try await graph.asyncBuild(of: entry, arguments, key: arguments.key ?? .distinct()).make(in: nil)()
    }
}
