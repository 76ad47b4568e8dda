/// `.scoped`: the innermost open dependency scope keeps the instance, which is released
/// (and torn down) when the scope ends; injecting one with no scope open is an error.
enum ScopedLifetime: LifetimeRules {
    static var entryKeeps: EntryKeeping? { nil }
    static var needsOpenScope: Bool { true }

    static func declaredScope(of record: RegistrationRecord) -> DependencyScope { .scoped }

    static func directKind(of record: RegistrationRecord) -> DirectLookup.Kind { .scoped }

    static func instance(
        of entry: Unmanaged<IndexEntry>, in graph: GraphEngine, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        // `scopedInstance` keeps the entry alive for a build (see `GraphEngine.buildClaimed`).
        try graph.scopedInstance(
            of: entry, takesParameters: entry._withUnsafeGuaranteedRef { $0.record.takesParameters }, arguments, state)
    }

    static func instanceAsync(of entry: IndexEntry, in graph: GraphEngine, _ arguments: InjectionArguments) async throws
        -> AnyObject
    {
        let build = try graph.asyncBuild(of: entry, arguments, key: graph.hashedKey(of: entry, arguments))
        let scope = try graph.servingScope(for: entry, nil)
        return try await scope.instance(
            of: entry, for: entry.record.takesParameters ? build.key : nil, chain: build.chain, path: build.waitPath,
            ended: { graph.scopeEnded(entry, nil) }, make: build.make(in: scope))
    }
}
