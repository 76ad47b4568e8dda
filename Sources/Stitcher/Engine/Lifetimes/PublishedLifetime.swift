/// `.singleton` and `.managed`: the entry keeps the instance strongly and publishes it once
/// built, for lock-free reads (see docs/Reclamation.md); a managed scope's reset renews the
/// entry.
enum PublishedLifetime: LifetimeRules {
    static var entryKeeps: EntryKeeping? { .strongly }
    static var needsOpenScope: Bool { false }

    static func declaredScope(of record: RegistrationRecord) -> DependencyScope {
        record.managedScope.map { .managed($0) } ?? .singleton
    }

    static func directKind(of record: RegistrationRecord) -> DirectLookup.Kind { .published }

    // The entry publishes one view, for the first protocol its instance is presented as.
    static func viewKind(isViewedAlias: Bool) -> DirectLookup.Kind { isViewedAlias ? .publishedView : .none }

    static func instance(
        of entry: Unmanaged<IndexEntry>, in graph: GraphEngine, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        // The entry's lock is used after the factory returns: hold the entry.
        try graph.storedInstance(of: entry.takeUnretainedValue(), arguments, state, strongly: true)
    }

    static func instanceAsync(of entry: IndexEntry, in graph: GraphEngine, _ arguments: InjectionArguments) async throws
        -> AnyObject
    {
        try await graph.storedInstanceAsync(of: entry, arguments, strongly: true)
    }
}
