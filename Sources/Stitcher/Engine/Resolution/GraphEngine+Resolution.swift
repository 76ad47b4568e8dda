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
        if let entry = list?.single, entry.record.accepts(arguments) {
            let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
            let record = entry.record
            if record.producedType.id == ObjectIdentifier(D.self) {
                return record.storesObjects
                    ? unsafeBitCast(instance, to: D.self)
                    : unsafeDowncast(instance, to: TypedBox<D>.self).value
            }
            return try convert(entry, instance, key(), arguments)
        }
        return try resolveSlowly(key(), arguments, list?.entries ?? [], state)
    }

    /// An instance whose type is not exactly `D`, cast to it.
    private func convert<D>(_ entry: IndexEntry, _ instance: AnyObject, _ key: LookupKey, _ arguments: InjectionArguments) throws -> D {
        if let value = entry.record.cast(instance, to: D.self) { return value }
        return try mismatch(entry, instance, key, arguments)
    }

    private func resolveSlowly<D>(
        _ key: LookupKey, _ arguments: InjectionArguments, _ candidates: [IndexEntry], _ state: ThreadState
    ) throws -> D {
        let matching = candidates.filter { $0.record.accepts(arguments) }
        switch matching.count {
        case 1:
            let entry = matching[0]
            let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
            if let value = entry.record.cast(instance, to: D.self) { return value }
            return try mismatch(entry, instance, key, arguments)
        case 0 where !candidates.isEmpty:
            throw parameterMismatch(key, arguments, candidates)
        case 0:
            if let wrapper = D.self as? any InjectableWrapper.Type {
                return try wrapper.resolveWrapped(in: self, key: key, arguments: arguments) as! D
            }
            throw missing(key, arguments)
        default:
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
        return try (snapshot(state: state).entries(for: key)?.entries ?? [])
            .filter { $0.record.accepts(arguments) }
            .map { entry in
                let instance = try entry.publishedInstance(state.hazard) ?? instance(of: entry, arguments, state)
                guard let value = entry.record.cast(instance, to: E.self) else {
                    throw InjectionError.mismatchedDependencyType(
                        entry.record.typeName(of: instance), expected: String(describing: E.self))
                }
                return value
            }
    }

    // MARK: Instances

    /// Returns the stored instance of `entry` or builds one, following its scope.
    func instance(of entry: IndexEntry, _ arguments: InjectionArguments, _ state: ThreadState) throws -> AnyObject {
        let record = entry.record
        let strongly: Bool
        switch record.scope {
        case .instance:
            return try makeTransient(entry, arguments, state)
        case .shared:
            if !record.takesParameters, let object = entry.sharedObject(state.hazard) {
                if record.storesObjects { return object }
                if let instance = record.restore(object) { return instance }
            }
            strongly = false
        case .singleton, .managed:
            strongly = true
        }
        try checkCycle(entry, arguments, state)
        let key = record.takesParameters ? arguments.key : ArgumentKey.empty
        let inherited = inheritedResolution(state)
        let chain = state.frames.isEmpty ? (inherited?.chain ?? ResolutionChain()) : state.currentChain
        return try entry.instance(
            for: key, strongly: strongly, chain: chain,
            path: { self.path(to: entry, state) },
            make: {
                // Child tasks the factory starts inherit the path, so a cycle through them
                // is reported instead of waiting for this very build.
                let step = InheritedResolution.Step(entry, arguments: key)
                if let shared = state.shared {
                    shared.append(step)
                    defer { shared.removeLast() }
                    return try instantiate(entry, arguments, state, inherited: inherited, chain: chain)
                }
                let shared = InheritedResolution(
                    steps: (inherited?.current ?? []) + state.frames.map(frameStep) + [step], chain: chain)
                state.shared = shared
                addInheritedPaths(1)
                defer {
                    addInheritedPaths(-1)
                    state.shared = nil
                }
                return try ResolutionStack.$inherited.withValue(shared) {
                    try instantiate(entry, arguments, state, inherited: inherited, chain: chain)
                }
            }
        )
    }

    /// Builds a new instance of a registration in the `.instance` scope; `arguments` is nil
    /// when it takes no parameters.
    @inline(__always)
    func makeTransient(_ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState) throws -> AnyObject {
        let inherited = inheritedResolution(state)
        // An outermost resolution with no inherited path cannot be a cycle.
        if detectsCycles, !state.frames.isEmpty || inherited != nil {
            try checkCycle(entry, arguments, state)
        }
        return try instantiate(entry, arguments, state, inherited: inherited)
    }

    /// Runs the factory of `entry` with a frame pushed on the thread's resolution path.
    @inline(__always)
    ///
    /// - Parameter inherited: the path inherited from a parent task, as it was before this
    ///   instantiation bound its own (used when the thread has no frame yet).
    private func instantiate(
        _ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain? = nil
    ) throws -> AnyObject {
        if state.frames.isEmpty {
            // Both are nil between resolutions: only write what there is.
            if let inherited { state.inherited = inherited }
            if let chain = chain ?? inherited?.chain { state.chain = chain }
        } else if StackGuard.isNearlyExhausted(lowestAddress: state.stackLimit) {
            throw tooDeep(entry, state)
        }
        let record = entry.record
        let parameters = record.takesParameters ? arguments : nil
        // Hashed when compared: an outermost frame rarely is; nested ones are hashed now so
        // that a deep path through one registration is not hashed again at every level.
        let hash = parameters.flatMap { state.frames.isEmpty ? nil : $0.hash }
        state.frames.push(ResolutionFrame(entry: entry, arguments: parameters, argumentHash: hash))
        defer {
            state.frames.pop()
            if state.frames.isEmpty { state.endResolution() }
        }
        do {
            return record.finish(try record.make(parameters ?? .none))
        } catch {
            throw failure(error, of: record, state)
        }
    }

    // The error paths of `instantiate`, outlined: it is inlined into every lookup, whose
    // fast path should not carry them.

    /// The error a factory's failure reaches the caller as (the frame of `record` is still
    /// on the path): its own error wrapped once, an engine error as it is, or, for a
    /// main-actor factory called elsewhere, a ``MainActorIsolationError`` naming it.
    @inline(never)
    private func failure(_ error: any Error, of record: RegistrationRecord, _ state: ThreadState) -> any Error {
        if error is OffMainActor {
            return MainActorIsolationError(requested: record.locator.context, neededBy: state.frames.map(\.context).dropLast())
        }
        return InjectionError.wrapping(error)
    }

    /// The error for an instantiation that would overflow the thread's stack.
    @inline(never)
    private func tooDeep(_ entry: IndexEntry, _ state: ThreadState) -> ResolutionTooDeep {
        ResolutionTooDeep(depth: state.frames.count, path: state.frames.map(\.context) + [entry.record.locator.context])
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
    private func checkCycle(_ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState) throws {
        if !state.frames.isEmpty, !state.frames.contains(identityHash: entry.record.identityHash),
           state.inherited == nil || state.inherited === state.shared {
            return
        }
        try checkCycleAlongPath(entry, arguments, state)
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
        if let inherited = inheritedResolution(state), inherited !== state.shared {
            if inherited.contains(where: { $0.builds(entry, with: arguments?.key ?? .empty) }) {
                throw cycleError(entry, state)
            }
        }
    }

    private func sameArguments(_ entry: IndexEntry, _ lhs: InjectionArguments?, _ rhs: InjectionArguments) -> Bool {
        !entry.record.takesParameters || lhs?.key == rhs.key
    }

    private func frameStep(_ frame: ResolutionFrame) -> InheritedResolution.Step {
        InheritedResolution.Step(frame.entry, arguments: frame.arguments?.key ?? .empty)
    }

    /// The cycle error for reaching `entry` again.
    private func cycleError(_ entry: IndexEntry, _ state: ThreadState) -> InjectionError {
        .cyclicDependencyReference(InjectionError.DependencyBacktrace(entries: path(to: entry, state)))
    }

    /// The resolution path that leads to `entry`: the inherited one, this thread's, then `entry`.
    private func path(to entry: IndexEntry, _ state: ThreadState) -> [InjectionError.DependencyContext] {
        let inherited = inheritedResolution(state)?.current.map(\.context) ?? []
        return inherited + state.frames.map(\.context) + [entry.record.locator.context]
    }
}
