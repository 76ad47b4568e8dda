extension GraphEngine {
    /// Resolves a `D` located by `key`, awaiting asynchronous factories.
    ///
    /// Registrations with synchronous factories resolve exactly as `resolve(_:_:)` does; only
    /// an asynchronous factory takes the asynchronous path, where the resolution path lives
    /// in a task-local value (an async factory may resume on another thread) and waiting for
    /// a build in progress suspends instead of blocking.
    func resolveAsync<D>(_ key: LookupKey, _ arguments: InjectionArguments) async throws -> D {
        // One read of the index decides both paths: were the synchronous path to read it
        // again, an activation in between could hand it an async factory to run.
        let state = ThreadState.current
        let candidates = snapshot(state: state).entries(for: key)?.entries ?? []
        let matching = candidates.filter { $0.record.accepts(arguments) }
        guard matching.count == 1, matching[0].record.isAsync else {
            return try resolveSlowly(key, arguments, candidates, state)
        }
        let entry = matching[0]
        let instance: AnyObject
        if let published = entry.publishedInstance(state.hazard) {
            instance = published
        } else {
            instance = try await instanceAsync(of: entry, arguments)
        }
        if let value = entry.record.cast(instance, to: D.self) { return value }
        throw InjectionError.mismatchedDependencyType(
            entry.record.typeName(of: instance), expected: String(describing: D.self))
    }

    /// Returns the stored instance of an asynchronous registration or builds one.
    func instanceAsync(of entry: IndexEntry, _ arguments: InjectionArguments) async throws -> AnyObject {
        let record = entry.record
        let inherited = ResolutionStack.inheritedFromTask
        let key = arguments.key
        let step = InheritedResolution.Step(entry, arguments: key)
        let steps = inherited?.current ?? []
        if steps.contains(where: { $0.builds(entry, with: key) }) {
            throw InjectionError.cyclicDependencyReference(.init(entries: steps.map(\.context) + [step.context]))
        }
        let chain = inherited?.chain ?? ResolutionChain()
        let path = InheritedResolution(steps: steps + [step], chain: chain)
        let make: () async throws -> AnyObject = {
            addInheritedPaths(1)
            defer { addInheritedPaths(-1) }
            return try await ResolutionStack.$inherited.withValue(path) {
                do {
                    return record.finish(try await record.makeAsync(arguments))
                } catch {
                    throw InjectionError.wrapping(error)
                }
            }
        }
        let strongly: Bool
        switch record.scope {
        case .instance: return try await make()
        case .shared: strongly = false
        case .singleton, .managed: strongly = true
        }
        return try await entry.instance(
            for: key, strongly: strongly, chain: chain,
            path: { steps.map(\.context) + [step.context] },
            make: make)
    }
}
