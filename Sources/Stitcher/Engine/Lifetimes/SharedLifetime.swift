/// `.shared`: the entry keeps each instance weakly, while something else holds it.
enum SharedLifetime: LifetimeRules {
    static var entryKeeps: EntryKeeping? { .weakly }
    static var needsOpenScope: Bool { false }

    static func declaredScope(of record: RegistrationRecord) -> DependencyScope { .shared }

    // A weak reference holds an object, not the stored form of a value: values take the
    // general path, which restores them.
    static func directKind(of record: RegistrationRecord) -> DirectLookup.Kind { record.storesObjects ? .shared : .none }

    static func instance(
        of entry: Unmanaged<IndexEntry>, in graph: GraphEngine, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        let found: AnyObject? = entry._withUnsafeGuaranteedRef { entry in
            let record = entry.record
            guard !record.takesParameters, let object = entry.sharedObject(state.hazard) else { return nil }
            return record.storesObjects ? object : record.restore(object)
        }
        if let found { return found }
        // The entry's lock is used after the factory returns: hold the entry.
        return try graph.storedInstance(of: entry.takeUnretainedValue(), arguments, state, strongly: false)
    }

    static func instanceAsync(of entry: IndexEntry, in graph: GraphEngine, _ arguments: InjectionArguments) async throws
        -> AnyObject
    {
        try await graph.storedInstanceAsync(of: entry, arguments, strongly: false)
    }
}
