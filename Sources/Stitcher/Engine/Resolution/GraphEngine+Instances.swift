/// Reaching a registration's instance: every lookup path ends here once the index has named
/// the entry (the direct path first reads what it can without coming here), and the
/// registration's lifetime rules (`LifetimeRules`) decide whether an instance is built, read
/// from where the graph keeps it, or kept by the innermost dependency scope. The building
/// blocks they use live here.
extension GraphEngine {
    /// Returns the stored instance of `entry` or builds one, as its lifetime's rules say.
    @inline(__always)
    func instance(of entry: IndexEntry, _ arguments: InjectionArguments, _ state: ThreadState) throws -> AnyObject {
        try entry.withRecord(\.lifetime).rules.instance(of: .passUnretained(entry), in: self, arguments, state)
    }

    /// The instance `entry` keeps for `arguments`, built once if there is none.
    ///
    /// An entry that left the graph answers nil (unless a build the resolution waited for
    /// finished meanwhile): the registration's entry in the current index answers instead,
    /// in a loop, not a recursion, however many renewals happened. A registration no longer
    /// in the graph gets an instance built for this caller only, as a request that raced
    /// with its removal.
    func storedInstance(
        of entry: IndexEntry, _ arguments: InjectionArguments, _ state: ThreadState, strongly: Bool
    ) throws -> AnyObject {
        if isChild, let instance = try storedInstanceInAncestor(of: entry, arguments, state, strongly: strongly) {
            return instance
        }
        let (key, inherited, chain) = try storedBuild(of: entry, arguments, state)
        let stored = key ?? .empty
        var current = entry
        while true {
            let answering = current
            let instance = try answering.instance(
                for: stored, strongly: strongly, chain: chain,
                path: { self.path(to: answering, state) },
                make: {
                    try instantiateSharingPath(
                        answering, arguments, stored, state, inherited: inherited, chain: chain, keeping: { _, _ in })
                })
            if let instance { return instance }
            guard let next = currentEntry(replacing: answering) else {
                return try instantiateSharingPath(
                    answering, arguments, stored, state, inherited: inherited, chain: chain, keeping: { _, _ in })
            }
            current = next
        }
    }

    /// In a child graph, the instance an ancestor stores for `entry`, built in that ancestor
    /// (`GraphEngine+Children`); nil when this graph registers `entry`. Outlined: only child
    /// graphs come here, and only to build.
    @inline(never)
    private func storedInstanceInAncestor(
        of entry: IndexEntry, _ arguments: InjectionArguments, _ state: ThreadState, strongly: Bool
    ) throws -> AnyObject? {
        guard let owner = ancestor(owning: entry) else { return nil }
        return try owner.build(for: self, state) { try owner.storedInstance(of: entry, arguments, state, strongly: strongly) }
    }

    /// The entry the current index holds for the registration of `retired`, which left it;
    /// nil when the registration is no longer in the graph. Read under the lock, without
    /// touching the thread's cached snapshot (callers may hold entries of it unretained).
    func currentEntry(replacing retired: IndexEntry) -> IndexEntry? {
        let snapshot = lock.withLock { current }
        let candidates: EntryList? =
            switch retired.record.locator.kind {
            case .type(let types): types.first.flatMap { snapshot.entries(ofType: $0.id) }
            case .name(let name): snapshot.entries(named: name)
            case .value(let value): snapshot.entries(for: value)
            }
        return candidates?.entries.first { $0 !== retired && $0.isSameRegistration(as: retired) }
    }

    /// What finding or building a stored instance of `entry` (kept by its entry or by a
    /// scope) starts from, once no cycle leads to it: the key of its instance (nil when the
    /// registration takes no parameters), the path inherited from a parent task, and the
    /// identity of the resolution asking.
    @inline(__always)
    func storedBuild(
        of entry: IndexEntry, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> (key: ArgumentKey?, inherited: InheritedResolution?, chain: ResolutionChain) {
        try checkCycle(entry, arguments, state)
        var key: ArgumentKey?
        if entry.record.takesParameters {
            guard let parameters = arguments.key else {
                throw scopeError(.unhashableParameters(types: arguments.typeNames), entry, state)
            }
            key = parameters
        }
        let inherited = inheritedResolution(state)
        return (key, inherited, resolutionChain(inherited: inherited, state))
    }

    /// Instantiates a stored instance with the resolution path shared with the child tasks
    /// its factory starts, so that a cycle through them is reported instead of waiting for
    /// this very build.
    func instantiateSharingPath(
        _ entry: IndexEntry, _ arguments: InjectionArguments, _ key: ArgumentKey?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain,
        keeping keep: (RegistrationRecord, AnyObject) -> Void
    ) throws -> AnyObject {
        if let shared = state.shared {
            shared._withUnsafeGuaranteedRef { $0.append(InheritedResolution.Step(entry, arguments: key)) }
            defer { shared._withUnsafeGuaranteedRef { $0.removeLast() } }
            return try instantiateOutOfLine(entry, arguments, state, inherited: inherited, chain: chain, keeping: keep)
        }
        // Usually neither an inherited path nor frames: one step, made in place (a step made
        // before and copied in cost a copy of its key and a reference count more).
        let shared = state.newSharedPath(chain: chain) { steps in
            if let inherited { steps += inherited.current }
            state.frames.forEach { steps.append(frameStep($0)) }
            steps.append(InheritedResolution.Step(entry, arguments: key))
        }
        state.shared = shared
        addInheritedPaths(1)
        defer {
            addInheritedPaths(-1)
            state.shared = nil
        }
        // The binding holds the path (and the state its spare) for as long as it is shared.
        return try ResolutionStack.$inherited.withValue(shared.takeUnretainedValue()) {
            try instantiateOutOfLine(entry, arguments, state, inherited: inherited, chain: chain, keeping: keep)
        }
    }

    /// `instantiate(_:_:_:inherited:chain:keeping:)` in one copy for both paths of
    /// `instantiateSharingPath`: inlined into each, a task-bound scope's request ran the same
    /// steps from two copies of the code (and the transient builds' from a third), and a
    /// server's request, which runs the engine's code cold, pays for every line of code it
    /// touches more than for the few instructions a call adds (`Scripts/code-footprint.sh`).
    @inline(never)
    private func instantiateOutOfLine(
        _ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain?, keeping keep: (RegistrationRecord, AnyObject) -> Void
    ) throws -> AnyObject {
        try instantiate(entry, arguments, state, inherited: inherited, chain: chain, keeping: keep)
    }

    /// Builds a new instance of a registration in the `.instance` scope; `arguments` is nil
    /// when it takes no parameters.
    @inline(__always)
    func makeTransient(_ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState) throws -> AnyObject {
        let inherited = try enterTransient(entry, arguments, state)
        return try instantiate(entry, arguments, state, inherited: inherited)
    }

    /// `makeTransient` for the lifetime's rules (`TransientLifetime.instance`, an
    /// injection with parameters). Out of line, so that it is compiled with the rest of the
    /// resolution code: inlined into the rules' witness, its thread-local accessors (C
    /// functions, see `FrameStack`) were left as calls there, nine a build.
    @inline(never)
    func makeTransientForRules(_ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState) throws -> AnyObject {
        try makeTransient(entry, arguments, state)
    }

    /// What every transient build starts with: the path inherited from a parent task, and
    /// the cycle check (an outermost resolution with no inherited path cannot be a cycle).
    @inline(__always)
    func enterTransient(
        _ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState
    ) throws -> InheritedResolution? {
        let inherited = inheritedResolution(state)
        if !state.frames.isEmpty || inherited != nil, settings.detectsCycles {
            try checkCycle(entry, arguments, state)
        }
        return inherited
    }

    /// Runs the factory of `entry` with a frame pushed on the thread's resolution path.
    ///
    /// - Parameter inherited: the path inherited from a parent task, as it was before this
    ///   instantiation bound its own (used when the thread has no frame yet).
    @inline(__always)
    func instantiate(
        _ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain? = nil
    ) throws -> AnyObject {
        try instantiate(entry, arguments, state, inherited: inherited, chain: chain, keeping: { _, _ in })
    }

    /// `instantiate(_:_:_:inherited:chain:)` that gives `keep` the new instance and its
    /// registration before the frame is popped, while the frame keeps the entry alive (see
    /// `buildClaimed`).
    @inline(__always)
    func instantiate(
        _ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain?, keeping keep: (RegistrationRecord, AnyObject) -> Void
    ) throws -> AnyObject {
        try enterFrame(entry, arguments, state, inherited: inherited, chain: chain)
        let parameters = entry.withRecord(\.takesParameters) ? arguments : nil
        // Hashed when compared: an outermost frame rarely is; nested ones are hashed now so
        // that a deep path through one registration is not hashed again at every level.
        let hash = parameters.flatMap { state.frames.isEmpty ? nil : $0.hash }
        if mayBeObserved { return try observedInstantiation(entry, parameters, hash, state, keeping: keep) }
        return try withFrame(entry, parameters, hash, state) { record in
            let instance = record.finish(try record.make(parameters ?? .none))
            keep(record, instance)
            return instance
        }
    }

    /// Binds the inherited path and chain to a thread's first frame, or checks the stack
    /// before a nested one.
    @inline(__always)
    func enterFrame(
        _ entry: IndexEntry, _ arguments: InjectionArguments?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain? = nil
    ) throws {
        if state.frames.isEmpty {
            // Both are nil between resolutions: only write what there is, once the flag that
            // has the end of the resolution forget them is raised (first: see `adopt(chain:)`).
            if chain != nil || inherited != nil { state.noteResolutionKeeps() }
            if let inherited { state.inherited = inherited }
            // Unwrapped one at a time: `chain ?? inherited?.chain` made an owned copy, a
            // reference counted (and released) for every outermost build.
            if let chain {
                state.adopt(chain: chain)
            } else if let chain = inherited?.chain {
                state.adopt(chain: chain)
            }
        } else if StackGuard.isNearlyExhausted(lowestAddress: state.stackLimit) {
            throw tooDeep(entry, state)
        }
    }

    /// Runs `body` (the factory) with the frame of `entry` on the thread's resolution path,
    /// its failure reported as the factory's.
    @inline(__always)
    func withFrame<R>(
        _ entry: IndexEntry, _ parameters: InjectionArguments?, _ hash: Int?, _ state: ThreadState,
        _ body: (RegistrationRecord) throws -> R
    ) throws -> R {
        state.frames.push(ResolutionFrame(entry: entry, arguments: parameters, argumentHash: hash))
        // Popped on each path, not in a `defer`: the compiler outlined the deferred pop of
        // some specializations into a function of its own (a call in every transient build).
        do {
            let result = try entry.withRecord(body)
            state.popFrame()
            return result
        } catch {
            let failure = Self.failure(error, of: entry.record, state)
            state.popFrame()
            throw failure
        }
    }

    // The rare paths of `instantiate`, outlined: it is inlined into every lookup, whose
    // fast path should not carry them.

    /// `instantiate` while some graph has an observer: timed, and reported to this graph's.
    @inline(never)
    private func observedInstantiation(
        _ entry: IndexEntry, _ parameters: InjectionArguments?, _ hash: Int?, _ state: ThreadState,
        keeping keep: (RegistrationRecord, AnyObject) -> Void
    ) throws -> AnyObject {
        let parent = state.frames.last?.entry.record
        state.frames.push(ResolutionFrame(entry: entry, arguments: parameters, argumentHash: hash))
        defer { state.popFrame() }
        let record = entry.record
        let observer = settings.observer
        let clock = ContinuousClock()
        let start = clock.now
        do {
            // Called directly when this graph has no observer (another graph has one): a
            // closure would cost a deep resolution a stack frame per level.
            let instance =
                if let observer {
                    try observer.instantiate(instantiation(of: entry, parent: parent)) {
                        record.finish(try record.make(parameters ?? .none))
                    }
                } else {
                    record.finish(try record.make(parameters ?? .none))
                }
            let scope = record.lifetime.needsOpenScope ? GraphContext.scope?.id : nil
            report(.created(entry, parent: parent, scope: scope, duration: clock.now - start))
            keep(record, instance)
            return instance
        } catch {
            let failure = Self.failure(error, of: record, state)
            report(.failed(record.locator.context, parent: parent?.locator.context, failure))
            throw failure
        }
    }

    /// What an observer's `instantiate` hook is told about a factory about to run.
    func instantiation(of entry: IndexEntry, parent: RegistrationRecord?) -> DependencyGraphEvent.Instantiation {
        let record = entry.record
        return .init(
            dependency: record.locator.context, scope: record.scope, parent: parent?.locator.context, isAsync: record.isAsync,
            container: containerName(of: entry))
    }

    /// The error a factory's failure reaches the caller as (the frame of `record` is still
    /// on the path): its own error wrapped once, an engine error as it is, or, for a
    /// main-actor factory called elsewhere, a ``MainActorIsolationError`` naming it.
    @inline(never)
    static func failure(_ error: any Error, of record: RegistrationRecord, _ state: ThreadState) -> any Error {
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
}
