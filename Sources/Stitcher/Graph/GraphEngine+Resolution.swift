extension GraphEngine {
    /// Resolves a single value of type `D` located by `key`.
    @inline(__always)
    func resolve<D>(_ key: LookupKey, _ arguments: InjectionArguments, as type: D.Type = D.self) throws -> D {
        let candidates = snapshot().candidates(for: key)
        if candidates.count == 1, candidates[0].record.parameterTypes == arguments.types {
            return try value(of: candidates[0], arguments, key: key)
        }
        return try resolveSlowly(key, arguments, candidates)
    }

    private func resolveSlowly<D>(_ key: LookupKey, _ arguments: InjectionArguments, _ candidates: [IndexEntry]) throws -> D {
        let matching = candidates.filter { $0.record.parameterTypes == arguments.types }
        switch matching.count {
        case 1:
            return try value(of: matching[0], arguments, key: key)
        case 0 where !candidates.isEmpty:
            throw parameterMismatch(key, arguments, candidates)
        case 0:
            if let wrapper = D.self as? any InjectableWrapper.Type {
                return try wrapper.resolveWrapped(in: self, key: key, arguments: arguments) as! D
            }
            throw missing(key, arguments)
        default:
            InjectionDiagnostics.record(matching.map(\.record.summary), for: key.context)
            throw InjectionError.multipleDependencies(key.context)
        }
    }

    /// Resolves a value located by `key`, or nil when nothing is registered under it.
    ///
    /// Errors other than absence (wrong parameters, failing factories) are still thrown.
    func resolveIfPresent<W>(_ key: LookupKey, _ arguments: InjectionArguments, as type: W.Type) throws -> W? {
        let candidates = snapshot().candidates(for: key)
        if candidates.isEmpty {
            guard let wrapper = W.self as? any InjectableWrapper.Type else { return nil }
            let wrapped = try wrapper.resolveWrapped(in: self, key: key, arguments: arguments)
            return wrapped.isEmptyInjection ? nil : (wrapped as! W)
        }
        return try resolveSlowly(key, arguments, candidates) as W
    }

    /// Resolves every registration under `key` whose parameters match, in registration order.
    func resolveAll<E>(_ key: LookupKey, _ arguments: InjectionArguments, as type: E.Type) throws -> [E] {
        try snapshot().candidates(for: key)
            .filter { $0.record.parameterTypes == arguments.types }
            .map { try value(of: $0, arguments) }
    }

    // MARK: Instances

    /// The instance of `entry` as a `D`, built if its scope has none stored.
    ///
    /// When `key` is a name or value and `D` is a collection, a registration whose instances
    /// are not collections stands for one element: the request is answered with every match.
    @inline(__always)
    func value<D>(of entry: IndexEntry, _ arguments: InjectionArguments, key: LookupKey? = nil) throws -> D {
        let box = try entry.slot.publishedInstance ?? instance(of: entry, arguments: arguments)
        if box.holdsProducedType, entry.record.producedType.id == ObjectIdentifier(D.self) {
            return unsafeDowncast(box, to: TypedBox<D>.self).value
        }
        if let value = box.anyValue as? D { return value }
        if let key, !key.isType, let wrapper = D.self as? any InjectableWrapper.Type {
            return try wrapper.resolveWrapped(in: self, key: key, arguments: arguments) as! D
        }
        throw InjectionError.mismatchedDependencyType(box.valueType.description, expected: String(describing: D.self))
    }

    /// Returns the stored instance of `entry` or builds one, following its scope.
    func instance(of entry: IndexEntry, arguments: InjectionArguments) throws -> InstanceBox {
        let record = entry.record
        let strongly: Bool
        switch record.scope {
        case .instance:
            guard StitcherConfiguration.detectsCycles.load(ordering: .relaxed) else {
                // Untracked: no frame, so nothing to find a cycle with.
                let box = try record.make(arguments)
                (box.anyValue as? PostInstantiationAware)?.didInstantiate()
                return box
            }
            return try instantiate(record, arguments, key: nil, parent: ResolutionStack.current)
        case .shared:
            strongly = false
        case .singleton, .managed:
            strongly = true
        }
        let key = record.parameterTypes.isEmpty ? ArgumentKey.empty : record.argumentKey(arguments)
        let parent = ResolutionStack.current
        try checkCycle(record, key, parent)
        let chain = parent?.chain ?? ResolutionChain()
        return try entry.slot.instance(
            for: key, strongly: strongly, chain: chain,
            cycle: { self.cycleError(record, parent) },
            make: { try instantiate(record, arguments, key: key, parent: parent, chain: chain) }
        )
    }

    /// Runs the factory of `record` inside a new resolution frame and calls `didInstantiate()`.
    private func instantiate(
        _ record: RegistrationRecord,
        _ arguments: InjectionArguments,
        key: ArgumentKey?,
        parent: ResolutionFrame?,
        chain: ResolutionChain? = nil
    ) throws -> InstanceBox {
        let key = key ?? (record.parameterTypes.isEmpty ? .empty : record.argumentKey(arguments))
        if chain == nil { try checkCycle(record, key, parent) }
        let frame = ResolutionFrame(
            parent: parent, identity: record.identity, arguments: key,
            context: record.locator.context, chain: chain)
        let box = try ResolutionStack.$current.withValue(frame) {
            try record.make(arguments)
        }
        (box.anyValue as? PostInstantiationAware)?.didInstantiate()
        return box
    }

    /// Throws when `record` is already being built on the path that leads here.
    ///
    /// Stored scopes are always checked, whatever the configuration: their creation waits
    /// for a build in progress, and waiting for oneself would deadlock.
    @inline(__always)
    private func checkCycle(_ record: RegistrationRecord, _ key: ArgumentKey, _ parent: ResolutionFrame?) throws {
        guard let parent else { return }
        if parent.contains(record.identity, arguments: key) {
            throw cycleError(record, parent)
        }
    }

    private func cycleError(_ record: RegistrationRecord, _ parent: ResolutionFrame?) -> InjectionError {
        let path = (parent?.path ?? []) + [record.locator.context]
        return .cyclicDependencyReference(InjectionError.DependencyBacktrace(entries: path))
    }
}
