extension GraphEngine {
    /// Resolves a single value of type `D` located by `key`.
    @inline(__always)
    func resolve<D>(_ key: LookupKey, _ arguments: InjectionArguments, as type: D.Type = D.self) throws -> D {
        switch key {
        case .type(let type): try resolve(type: type, arguments)
        case .name(let name): try resolve(name: name, arguments)
        case .value(let value): try resolve(value: value, arguments)
        }
    }

    /// Resolves a `D` registered for `type`.
    @inline(__always)
    func resolve<D>(type: TypeKey, _ arguments: InjectionArguments) throws -> D {
        let state = ThreadState.current
        let list = snapshot(state: state).entries(ofType: type.id)
        return try resolve(list, arguments, state, key: .type(type))
    }

    /// Resolves a `D` registered under `name`.
    @inline(__always)
    func resolve<D>(name: String, _ arguments: InjectionArguments) throws -> D {
        let state = ThreadState.current
        let list = snapshot(state: state).entries(named: name)
        return try resolve(list, arguments, state, key: .name(name))
    }

    /// Resolves a `D` associated with `value`.
    @inline(__always)
    func resolve<D>(value: AnyHashable, _ arguments: InjectionArguments) throws -> D {
        let state = ThreadState.current
        let list = snapshot(state: state).entries(for: value)
        return try resolve(list, arguments, state, key: .value(value))
    }

    /// The common path: one registration taking the given parameters, whose instance is
    /// exactly a `D`, returned without a dynamic cast; anything else goes the slow way.
    @inline(__always)
    private func resolve<D>(
        _ list: EntryList?, _ arguments: InjectionArguments, _ state: ThreadState, key: @autoclosure () -> LookupKey
    ) throws -> D {
        if let list, let entry = list.single ?? list.onlyAccepting(arguments), entry.record.accepts(arguments) {
            guard entry.record.producedType.id == ObjectIdentifier(D.self) else {
                return try convert(entry, key(), arguments, state)
            }
            let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
            return entry.record.storesObjects
                ? unsafeBitCast(instance, to: D.self)
                : unsafeDowncast(instance, to: TypedBox<D>.self).value
        }
        return try resolveSlowly(key(), arguments, list?.entries ?? [], state)
    }

    /// The instance of `entry`, whose type is not exactly `D`, cast to it (unless a `Lazy`
    /// or `Provider` was asked for by name or value: made without building anything).
    private func convert<D>(_ entry: IndexEntry, _ key: LookupKey, _ arguments: InjectionArguments, _ state: ThreadState) throws -> D {
        if let deferred = try deferredByLocator(key, arguments, as: D.self) { return deferred }
        let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
        if let value = entry.record.cast(instance, to: D.self) { return value }
        return try mismatch(entry, instance, key, arguments)
    }

    /// A `Lazy` or `Provider` asked for by name or value (a type key finds none registered
    /// under the wrapper's own type, and reaches the wrapper when nothing answers): made
    /// before anything under the key is built. Nil for any other `D`.
    @inline(never)
    private func deferredByLocator<D>(_ key: LookupKey, _ arguments: InjectionArguments, as _: D.Type) throws -> D? {
        guard !key.isType, let deferred = D.self as? any DeferredInjection.Type else { return nil }
        return try deferred.resolveWrapped(in: self, key: key, arguments: arguments) as? D
    }

    private func resolveSlowly<D>(
        _ key: LookupKey, _ arguments: InjectionArguments, _ candidates: [IndexEntry], _ state: ThreadState
    ) throws -> D {
        if let deferred = try deferredByLocator(key, arguments, as: D.self) { return deferred }
        switch RequestAnswer(key, candidates, accepts: { $0.accepts(arguments) }) {
        case .entry(let entry):
            let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
            if let value = entry.record.cast(instance, to: D.self) { return value }
            return try mismatch(entry, instance, key, arguments)
        case .parameterMismatch:
            throw parameterMismatch(key, arguments, candidates)
        case .nothing:
            if let wrapper = D.self as? any InjectableWrapper.Type {
                return try wrapper.resolveWrapped(in: self, key: key, arguments: arguments) as! D
            }
            throw childDependencyCaptured(key, arguments, state) ?? missing(key, arguments)
        case .ambiguous(let matching):
            throw ambiguity(key, matching)
        }
    }

    /// The error for an instance that is not a `D`; or, when a collection was asked for by
    /// name or value, every match.
    private func mismatch<D>(_ entry: IndexEntry, _ instance: AnyObject, _ key: LookupKey, _ arguments: InjectionArguments) throws -> D {
        if !key.isType, let wrapper = D.self as? any InjectableWrapper.Type {
            return try wrapper.resolveWrapped(in: self, key: key, arguments: arguments) as! D
        }
        throw InjectionError.mismatchedDependencyType(entry.record.typeName(of: instance), expected: String(describing: D.self))
    }

    /// Resolves a value located by `key`, or nil when nothing is registered under it.
    ///
    /// Errors other than absence (wrong parameters, failing factories) are still thrown.
    func resolveIfPresent<W>(_ key: LookupKey, _ arguments: InjectionArguments, as type: W.Type) throws -> W? {
        let state = ThreadState.current
        let candidates = snapshot(state: state).entries(for: key)?.entries ?? []
        if candidates.isEmpty {
            guard let wrapper = W.self as? any InjectableWrapper.Type else { return nil }
            let wrapped = try wrapper.resolveWrapped(in: self, key: key, arguments: arguments)
            return wrapped.isEmptyInjection ? nil : (wrapped as! W)
        }
        return try resolveSlowly(key, arguments, candidates, state) as W
    }

    /// Resolves every registration under `key` whose parameters match, in registration order.
    func resolveAll<E>(_ key: LookupKey, _ arguments: InjectionArguments, as type: E.Type) throws -> [E] {
        let state = ThreadState.current
        guard let list = snapshot(state: state).entries(for: key) else { return [] }
        var all: [E] = []
        all.reserveCapacity(list.count)
        try list.forEach { entry in
            if entry.record.accepts(arguments) { all.append(try element(entry, arguments, state, as: E.self)) }
        }
        return all
    }

    /// One element of a collection request: a singleton presented as the protocol `E`
    /// through its view (no dynamic cast), anything else cast.
    private func element<E>(_ entry: IndexEntry, _ arguments: InjectionArguments, _ state: ThreadState, as _: E.Type) throws -> E {
        let id = ObjectIdentifier(E.self)
        if arguments.isEmpty, case let kind = DirectLookup.kind(of: entry, as: id), kind == .publishedView {
            return unsafeDowncast(try view(for: DirectLookup(entry, kind), as: id, state), to: TypedBox<E>.self).value
        }
        let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
        guard let value = entry.record.cast(instance, to: E.self) else {
            throw InjectionError.mismatchedDependencyType(entry.record.typeName(of: instance), expected: String(describing: E.self))
        }
        return value
    }

    /// The path inherited from a parent task, when this thread has no resolution in progress.
    @inline(__always)
    func inheritedResolution(_ state: ThreadState) -> InheritedResolution? {
        if !state.frames.isEmpty { return state.inherited }
        return ResolutionStack.inheritedFromTask
    }

    /// Throws when `entry` (with equal parameters) is already being built on the path that
    /// leads here: on this thread, or in the task that started this thread's work.
    ///
    /// Inlined: the common answer, no frame of the same identity hash and no path to
    /// inherit, costs a loop over a few integers; anything else takes the outlined check.
    @inline(__always)
    func checkCycle(_ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState) throws {
        if cycleIsRuledOut(entry, state) { return }
        try checkCycleAlongPath(entry, arguments, state)
    }

    /// `checkCycle`'s quick answer: true when no cycle can lead to `entry` (no frame of the
    /// same identity hash, and no path inherited from a task); false when the path must be
    /// checked.
    @inline(__always)
    func cycleIsRuledOut(_ entry: IndexEntry, _ state: ThreadState) -> Bool {
        // An outermost resolution: a cycle only through a path inherited from a task.
        if state.frames.isEmpty { return inheritedPathCount == 0 }
        return !state.frames.contains(identityHash: entry.record.identityHash)
            && (state.inherited.map(state.isShared) ?? true)
    }

    /// The identity of the resolution asking: an outermost one's (the inherited path's, or a
    /// new one), or the one in progress on this thread.
    @inline(__always)
    func resolutionChain(inherited: InheritedResolution?, _ state: ThreadState) -> ResolutionChain {
        state.frames.isEmpty ? (inherited?.chain ?? state.newChain()) : state.currentChain
    }

    /// `checkCycle(_:_:_:)` when the quick answer does not settle it.
    @inline(never)
    private func checkCycleAlongPath(_ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState) throws {
        let hash = entry.record.identityHash
        // Compared first, as plain integers: a deep path through one registration with
        // different parameters compares no values and touches no entry. Hashed only when
        // the path holds the same identity.
        var argumentHash: Int?
        let parameterized = entry.record.takesParameters ? arguments : nil
        try state.frames.forEach { frame in
            guard frame.identityHash == hash else { return }
            if let arguments = parameterized {
                let current = argumentHash ?? arguments.hash
                argumentHash = current
                guard frame.argumentHash ?? frame.arguments?.hash == current,
                    frame.entry.isSameRegistration(as: entry),
                    sameArguments(entry, frame.arguments, arguments)
                else { return }
            } else {
                guard frame.entry.isSameRegistration(as: entry) else { return }
            }
            throw cycleError(entry, state)
        }
        if let inherited = inheritedResolution(state), !state.isShared(inherited) {
            if inherited.contains(where: { $0.builds(entry, with: arguments?.key ?? .empty) }) {
                throw cycleError(entry, state)
            }
        }
    }

    private func sameArguments(_ entry: IndexEntry, _ lhs: InjectionArguments?, _ rhs: InjectionArguments) -> Bool {
        !entry.record.takesParameters || lhs?.key == rhs.key
    }

    func frameStep(_ frame: ResolutionFrame) -> InheritedResolution.Step {
        InheritedResolution.Step(frame.entry, arguments: frame.arguments?.key)
    }

    /// The cycle error for reaching `entry` again.
    private func cycleError(_ entry: IndexEntry, _ state: ThreadState) -> InjectionError {
        .cyclicDependencyReference(InjectionError.DependencyBacktrace(entries: path(to: entry, state)))
    }

    /// The resolution path that leads to `entry`: the inherited one, this thread's, then `entry`.
    func path(to entry: IndexEntry, _ state: ThreadState) -> [InjectionError.DependencyContext] {
        let inherited = inheritedResolution(state)?.current.map(\.context) ?? []
        return inherited + state.frames.map(\.context) + [entry.record.locator.context]
    }
}
