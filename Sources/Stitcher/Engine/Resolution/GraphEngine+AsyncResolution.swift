extension GraphEngine {
    /// Resolves a `D` located by `key`, awaiting asynchronous factories.
    ///
    /// Registrations with synchronous factories resolve exactly as `resolve(_:_:)` does; only
    /// an asynchronous factory takes the asynchronous path, where the resolution path lives
    /// in a task-local value (an async factory may resume on another thread) and waiting for
    /// a build in progress suspends instead of blocking.
    func resolveAsync<D>(_ key: LookupKey, _ arguments: InjectionArguments) async throws -> D {
        if let entry = asynchronousEntry(key, arguments) { return try await resolveAsync(entry, arguments) }
        do {
            return try resolve(key, arguments)
        } catch InjectionError.unsupportedOperation {
            // The synchronous path read the index again, and an activation in between gave it
            // an async factory (or a synchronous factory asked for one synchronously, which is
            // the caller's error). Decide on what the index holds now.
            if let entry = asynchronousEntry(key, arguments) { return try await resolveAsync(entry, arguments) }
            if snapshot().entries(for: key) == nil { return try resolve(key, arguments) }
            throw InjectionError.unsupportedOperation
        }
    }

    /// Resolves a `D` registered for `type`, awaiting an asynchronous factory, or nil when
    /// nothing is registered for it (wrappers such as an optional array resolve as
    /// `resolve(_:_:)` does).
    func resolveAsyncIfPresent<D>(type: TypeKey, as _: D.Type, _ arguments: InjectionArguments) async throws -> D? {
        if snapshot().entries(for: .type(type))?.entries.isEmpty ?? true {
            return try resolve(type: TypeKey(D?.self), arguments)
        }
        return try await resolveAsync(.type(type), arguments) as D
    }

    /// The one registration `key` and `arguments` select, when its factory cannot run
    /// synchronously here: it is asynchronous, or isolated to the main actor and this is not
    /// the main actor.
    private func asynchronousEntry(_ key: LookupKey, _ arguments: InjectionArguments) -> IndexEntry? {
        let candidates = snapshot().entries(for: key)?.entries ?? []
        let matching = candidates.filter { $0.record.accepts(arguments) }
        guard let entry = EntryList.answering(matching, for: key), !entry.record.runsSynchronouslyHere else { return nil }
        return entry
    }

    /// Resolves the registration of an asynchronous or main-actor factory.
    private func resolveAsync<D>(_ entry: IndexEntry, _ arguments: InjectionArguments) async throws -> D {
        let instance = try await instanceAwaitingFactory(of: entry, arguments)
        if let value = entry.record.cast(instance, to: D.self) { return value }
        throw InjectionError.mismatchedDependencyType(
            entry.record.typeName(of: instance), expected: String(describing: D.self))
    }

    /// The instance of `entry` from asynchronous code: its factory runs on this thread when
    /// it can (as `resolveAsync` decides for a lookup), or is awaited.
    func instanceFromAsyncCode(of entry: IndexEntry, _ arguments: InjectionArguments) async throws -> AnyObject {
        if entry.record.runsSynchronouslyHere { return try instance(of: entry, arguments, ThreadState.current) }
        return try await instanceAwaitingFactory(of: entry, arguments)
    }

    /// The instance of a registration whose factory cannot run synchronously here: the one
    /// published, or one built by its asynchronous factory or on the main actor.
    func instanceAwaitingFactory(of entry: IndexEntry, _ arguments: InjectionArguments) async throws -> AnyObject {
        if let published = entry.publishedInstance(ThreadState.current.hazard) { return published }
        if entry.record.isMainActor { return try await instanceOnMainActor(of: entry, arguments) }
        return try await instanceAsync(of: entry, arguments)
    }

    /// Returns the stored instance of a main-actor registration or builds one, on the main
    /// actor: the synchronous path runs there, within the calling task (its resolution path
    /// and isolated graph come along).
    private func instanceOnMainActor(of entry: IndexEntry, _ arguments: InjectionArguments) async throws -> AnyObject {
        let request = UncheckedSendable((self, entry, arguments))
        return try await MainActor.run {
            let (graph, entry, arguments) = request.value
            return UncheckedSendable(try graph.instance(of: entry, arguments, ThreadState.current))
        }.value
    }

    /// Returns the instance of an asynchronous registration, as its lifetime keeps it.
    func instanceAsync(of entry: IndexEntry, _ arguments: InjectionArguments) async throws -> AnyObject {
        try await entry.record.lifetime.rules.instanceAsync(of: entry, in: self, arguments)
    }

    /// The key a stored instance of `entry` is found by from asynchronous code: the
    /// parameters' values, which must be hashable.
    func hashedKey(of entry: IndexEntry, _ arguments: InjectionArguments) throws -> ArgumentKey {
        guard let key = arguments.key else {
            throw scopeError(.unhashableParameters(types: arguments.typeNames), entry, nil)
        }
        return key
    }

    /// What building an instance of `entry` from asynchronous code starts from, once no
    /// cycle leads to it (with the instance's `key`, one step of the path inherited by the
    /// tasks the factory starts).
    ///
    /// - Throws: ``InjectionError/cyclicDependencyReference(_:)`` when the path inherited
    ///   from the calling task already builds it.
    func asyncBuild(of entry: IndexEntry, _ arguments: InjectionArguments, key: ArgumentKey) throws -> AsyncBuild {
        let inherited = ResolutionStack.inheritedFromTask
        let step = InheritedResolution.Step(entry, arguments: key)
        let steps = inherited?.current ?? []
        if steps.contains(where: { $0.builds(entry, with: key) }) {
            throw InjectionError.cyclicDependencyReference(.init(entries: steps.map(\.context) + [step.context]))
        }
        let chain = inherited?.chain ?? ResolutionChain()
        return AsyncBuild(graph: self, entry: entry, arguments: arguments, key: key, steps: steps + [step], chain: chain)
    }

    /// The instance `entry` keeps for `arguments` (`strongly` or weakly), built once by its
    /// asynchronous factory if there is none.
    ///
    /// A retired entry answers nil: its registration's current entry answers instead (see
    /// `storedInstance`); the factory builds the first entry's registration, the same
    /// declaration.
    func storedInstanceAsync(of entry: IndexEntry, _ arguments: InjectionArguments, strongly: Bool) async throws
        -> AnyObject
    {
        if isChild, let owner = ancestor(owning: entry) {
            return try await owner.build(for: self) { try await owner.storedInstanceAsync(of: entry, arguments, strongly: strongly) }
        }
        let build = try asyncBuild(of: entry, arguments, key: hashedKey(of: entry, arguments))
        let make = build.make(in: nil)
        var current = entry
        while true {
            if let instance = try await current.instance(
                for: build.key, strongly: strongly, chain: build.chain, path: build.waitPath, make: make)
            {
                return instance
            }
            guard let next = currentEntry(replacing: current) else { return try await make() }
            current = next
        }
    }
}

/// A build of an instance by its asynchronous factory, started by `GraphEngine.asyncBuild`:
/// the resolution path the factory's task inherits, and how the build is observed.
struct AsyncBuild {
    let graph: GraphEngine
    let entry: IndexEntry
    let arguments: InjectionArguments
    /// The key the instance is found by (distinct for each transient build).
    let key: ArgumentKey
    /// The path inherited from the calling task, and this build's step.
    let steps: [InheritedResolution.Step]
    let chain: ResolutionChain

    /// The path reported when waiting for this build would close a cycle.
    var waitPath: () -> [InjectionError.DependencyContext] { { [steps] in steps.map(\.context) } }

    /// The factory call, with the path bound for the tasks it starts, reported to the
    /// graph's observer (the instance as created in `scope`, when a scope keeps it).
    func make(in scope: ScopeStore?) -> () async throws -> AnyObject {
        { [self] in
            let record = entry.record
            let parent = steps.dropLast().last
            addInheritedPaths(1)
            defer { addInheritedPaths(-1) }
            let start = graph.mayBeObserved ? ContinuousClock.now : nil
            let observer = start == nil ? nil : graph.settings.observer
            let path = InheritedResolution(steps: steps, chain: chain)
            let instance = try await ResolutionStack.$inherited.withValue(path) {
                do {
                    let make = { record.finish(try await record.makeAsync(arguments)) }
                    guard let observer else { return try await make() }
                    return try await observer.instantiateAsync(graph.instantiation(of: entry, parent: parent?.record), make)
                } catch {
                    let failure = InjectionError.wrapping(error)
                    graph.report(.failed(record.locator.context, parent: parent?.context, failure))
                    throw failure
                }
            }
            if let start {
                graph.report(.created(entry, parent: parent?.record, scope: scope?.id, duration: .now - start))
            }
            return instance
        }
    }
}
