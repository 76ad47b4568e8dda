/// Serving `.scoped` registrations from the innermost dependency scope: a built instance
/// read, or a new one built once and kept in the scope's slot (`ScopeStore+Building.swift`).
extension GraphEngine {
    /// The instance the innermost scope (`servingScope(for:_:)`, used unretained) keeps of
    /// `entry` for `arguments`: where every synchronous `.scoped` lookup goes.
    @inline(__always)
    func scopedInstance(
        of entry: Unmanaged<IndexEntry>, takesParameters: Bool, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        try entry._withUnsafeGuaranteedRef { unretained in
            try servingScope(for: unretained, state)._withUnsafeGuaranteedRef { scope in
                try scopedInstance(of: entry, takesParameters: takesParameters, in: scope, arguments, state)
            }
        }
    }

    /// The instance `scope` keeps of `entry` for `arguments`, built once if there is none.
    ///
    /// A registration without parameters (most) takes one lock to read a built instance
    /// (most injections of a request's dependencies) or, when no cycle can lead to it, to
    /// claim its new slot: no path to share, and no reference to the entry counted (nor its
    /// registration read: the caller says whether it takes parameters, which the direct
    /// path knows from its lookup). Anything else takes the full path (`buildScoped`), which
    /// holds the entry for its build, whose factory may replace the snapshot it came from; a
    /// claimed build uses it unretained inside its frame (`buildClaimed`). The caller keeps
    /// it alive until then.
    @inline(__always)
    private func scopedInstance(
        of entry: Unmanaged<IndexEntry>, takesParameters: Bool, in scope: ScopeStore, _ arguments: InjectionArguments,
        _ state: ThreadState
    ) throws -> AnyObject {
        if !takesParameters {
            let look = entry._withUnsafeGuaranteedRef { unretained in
                scope.builtInstance(of: unretained, claimingFor: { chainIfNoCycle(to: unretained, state) })
            }
            switch look {
            case .built(let instance): return instance
            case .claimed(let claim, let chain):
                return try buildClaimed(entry, claim, by: chain, in: scope, arguments, state)
            case .unsettled: break
            }
        }
        return try buildScoped(entry.takeUnretainedValue(), in: scope, arguments, state)
    }

    /// The chain of the resolution asking for `entry`, a registration without parameters,
    /// when `checkCycle`'s quick answer rules a cycle out (what the full path checks before
    /// it claims); nil otherwise. An outermost resolution it lets through inherits no path.
    ///
    /// Unretained: the thread's state holds it for the whole build (see `buildClaimed`).
    @inline(__always)
    private func chainIfNoCycle(to entry: IndexEntry, _ state: ThreadState) -> Unmanaged<ResolutionChain>? {
        guard cycleIsRuledOut(entry, state) else { return nil }
        // As `resolutionChain(inherited: nil, _:)`.
        return state.frames.isEmpty ? state.unretainedNewChain() : state.unretainedCurrentChain
    }

    /// Builds the instance of `entry` (without parameters) whose slot in `scope` this
    /// resolution claimed in `scopedInstance` (no cycle leads to it), and keeps it there.
    ///
    /// `chain` comes unretained (counting it cost three references a build): the calling
    /// thread's state holds it until the build ends. An outermost resolution's chain is the
    /// state's spare one, replaced only when a later outermost resolution on this thread
    /// starts; a nested one's is the chain of the thread's first frame, released when the
    /// last frame is popped, after this build.
    ///
    /// `entry` comes unretained too (counting it cost two references a build, to an object
    /// every core reads): it is used only while the build's frame is on the thread's path,
    /// which keeps the snapshot it came from, and so the entry, alive however the factory
    /// changes the graph (`ThreadState.snapshot`). So the instance is kept in its slot
    /// inside the frame; a failed build's claim is abandoned without the entry, and the
    /// rare build whose scope ended meanwhile holds the entry for its error.
    @inline(never)
    private func buildClaimed(
        _ entry: Unmanaged<IndexEntry>, _ claim: (index: Int, sharedWithTasks: Bool), by chain: Unmanaged<ResolutionChain>,
        in scope: ScopeStore, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        var kept = false
        var ended: (teardown: ScopeTeardown?, entry: IndexEntry)?
        let instance: AnyObject
        do {
            instance = try entry._withUnsafeGuaranteedRef { entry in
                try chain._withUnsafeGuaranteedRef { chain in
                    // Nothing inherited to pass: an outermost resolution the quick answer lets
                    // through inherits no path, and a nested one's is bound to the thread already.
                    try makeScoped(
                        entry, arguments, nil, state, inherited: nil, chain: chain, sharedWithTasks: claim.sharedWithTasks
                    ) { record, instance in
                        kept = true
                        if scope.keep(instance, in: claim.index, of: record) { return }
                        ended = (ScopeTeardown(instance, of: record), entry)
                    }
                }
            }
        } catch {
            if !kept { scope.abandon(claim.index) }
            throw error
        }
        if let ended {
            // Torn down outside the frame: the scope that would have kept it ended.
            scope.tearDownUnkept(ended.teardown)
            throw scopeEnded(ended.entry, state)
        }
        return instance
    }

    /// Builds the instance `scope` keeps of `entry` for `arguments`, unless another
    /// resolution has meanwhile (then waits for it, or reports the cycle that waiting would
    /// close). The caller holds `entry`: the factory may replace the snapshot it came from.
    private func buildScoped(
        _ entry: IndexEntry, in scope: ScopeStore, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject {
        let (key, inherited, chain) = try storedBuild(of: entry, arguments, state)
        return try scope.instance(
            of: entry, for: key, chain: chain,
            path: { self.path(to: entry, state) },
            ended: { self.scopeEnded(entry, state) },
            make: { sharedWithTasks in
                try makeScoped(
                    entry, arguments, key, state, inherited: inherited, chain: chain, sharedWithTasks: sharedWithTasks,
                    keeping: { _, _ in })
            })
    }

    /// Runs the factory of `entry` for a scope's slot this resolution claimed; `keep` is
    /// given the new instance inside the build's frame (see `instantiate`).
    @inline(__always)
    private func makeScoped(
        _ entry: IndexEntry, _ arguments: InjectionArguments, _ key: ArgumentKey?, _ state: ThreadState,
        inherited: InheritedResolution?, chain: ResolutionChain, sharedWithTasks: Bool,
        keeping keep: (RegistrationRecord, AnyObject) -> Void
    ) throws -> AnyObject {
        // Tasks the factory starts cannot see a scope bound to this thread only: no path to
        // share with them.
        sharedWithTasks
            ? try instantiateSharingPath(entry, arguments, key, state, inherited: inherited, chain: chain, keeping: keep)
            : try instantiate(entry, arguments, state, inherited: inherited, chain: chain, keeping: keep)
    }
}
