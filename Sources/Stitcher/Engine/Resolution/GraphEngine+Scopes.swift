/// Serving `.scoped` registrations: finding the innermost open dependency scope, and
/// checking that nothing longer-lived is about to hold its instance.
extension GraphEngine {
    /// The innermost open scope, which keeps the instances of the `.scoped` registration
    /// `entry` stands for.
    ///
    /// - Parameter state: the calling thread's state, whose frames are the instantiations in
    ///   progress; nil from asynchronous code, whose path is the task's inherited one.
    /// - Throws: ``DependencyScopeError`` when a dependency that outlives scopes asks for it
    ///   (directly or through `.instance` dependencies), or when no scope is open.
    @inline(__always)
    func servingScope(for entry: IndexEntry, _ state: ThreadState?) throws -> ScopeStore {
        if let state { return try servingScope(for: entry, state).takeUnretainedValue() }
        if inheritedPathCount != 0, let holder = captiveHolder(nil) { throw captive(holder, entry, nil) }
        guard let scope = GraphContext.scope else { throw scopeError(.noScopeOpen, entry, nil) }
        return scope
    }

    /// `servingScope(for:_:)` for a synchronous lookup, which holds the calling thread's
    /// state: the state not wrapped in an optional, and the scope not retained
    /// (`GraphContext.unretainedScope(on:)`: its binding holds it until the lookup
    /// returns). Either counted references on every `.scoped` injection.
    @inline(__always)
    func servingScope(for entry: IndexEntry, _ state: ThreadState) throws -> Unmanaged<ScopeStore> {
        // Outside any resolution (the usual outermost injection): no holder.
        if !state.isOutsideAnyResolution, let holder = captiveHolder(state) {
            throw captive(holder, entry, state)
        }
        guard let scope = GraphContext.unretainedScope(on: state) else { throw scopeError(.noScopeOpen, entry, state) }
        return scope
    }

    /// The error for a dependency that outlives scopes (`holder`) asking for a `.scoped` one.
    @inline(never)
    private func captive(_ holder: RegistrationRecord, _ entry: IndexEntry, _ state: ThreadState?) -> DependencyScopeError {
        scopeError(.captiveDependency(holder: holder.locator.context, holderScope: holder.scope.description), entry, state)
    }

    /// The error for a `.scoped` instance built after its scope ended.
    @inline(never)
    func scopeEnded(_ entry: IndexEntry, _ state: ThreadState?) -> DependencyScopeError {
        scopeError(.scopeEnded, entry, state)
    }

    /// The registration of the nearest instantiation in progress that is not `.instance`,
    /// when it outlives scopes: a `.scoped` one in between makes the request legitimate.
    /// (A registration, not its description: every nested `.scoped` injection asks, and
    /// almost every answer is nil.)
    private func captiveHolder(_ state: ThreadState?) -> RegistrationRecord? {
        // Innermost first: this thread's frames, then the path inherited from the task. The
        // first instantiation that is not `.instance` decides. (Decided from the frames'
        // copies of the lifetimes: following each frame to its registration would count
        // references to registrations that every core reads.)
        // (Not `if let state`: binding it counted a reference to it.)
        if let frames = state?.frames {
            var index = frames.count - 1
            while index >= 0 {
                let lifetime = frames[index].lifetime
                if lifetime.storesInstances { return lifetime.outlivesScopes ? frames[index].entry.record : nil }
                index -= 1
            }
            // Within a resolution, the path is the one it inherited (`inheritedResolution`),
            // usually none: answered without counting references to the state or its path.
            if !frames.isEmpty, state.unsafelyUnwrapped.inherited == nil { return nil }
        }
        let inherited = state.map(inheritedResolution) ?? ResolutionStack.inheritedFromTask
        guard let step = inherited?.current.last(where: { $0.record.lifetime.storesInstances }) else { return nil }
        return step.record.lifetime.outlivesScopes ? step.record : nil
    }

    func scopeError(
        _ reason: DependencyScopeError.Reason, _ entry: IndexEntry, _ state: ThreadState?
    ) -> DependencyScopeError {
        let chain =
            state.map { path(to: entry, $0) }
            ?? ((ResolutionStack.inheritedFromTask?.current.map(\.context) ?? []) + [entry.record.locator.context])
        let error = DependencyScopeError(reason: reason, requested: entry.record.locator.context, chain: chain)
        report(.failed(error.requested, parent: chain.dropLast().last, error))
        return error
    }
}
