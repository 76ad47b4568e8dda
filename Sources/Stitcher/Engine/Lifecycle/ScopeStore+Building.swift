/// Building a scope's instances exactly once (`BuildSite`, as an index entry's stored
/// instances are built): one resolution claims a slot and runs the factory without holding
/// the lock; the others wait, blocked or suspended, and a wait that would close a loop
/// across threads is reported as a cycle.
extension ScopeStore: BuildSite {
    /// What a claim found: the instance, the slot this resolution now builds (as `chain`),
    /// the build to wait for, or a slot free to claim by a resolution that may not.
    private enum SlotClaim {
        case built(AnyObject)
        case claimed(Int, by: Unmanaged<ResolutionChain>)
        case wait(for: ResolutionChain)
        case notClaimed
    }

    /// A slot of the scope: a registration's entry (held by the caller for the call) and
    /// its parameter values (nil for none).
    struct BuildRequest {
        let entry: Unmanaged<IndexEntry>
        let key: ArgumentKey?
    }

    /// Returns the scope's instance of `entry` for `key` (nil for a registration without
    /// parameters), or builds, keeps and returns one (`BuildSite`).
    ///
    /// - Parameters:
    ///   - chain: the resolution asking, to detect waits that would deadlock.
    ///   - path: the resolution path that leads here, ending with this entry; kept while
    ///     waiting, so that a cycle across threads is reported whole.
    ///   - ended: the error thrown when the scope has ended.
    ///   - make: builds the instance; told whether the scope is bound to a task, whose child
    ///     tasks, those the factory starts included, see it.
    ///
    /// Inlined into the caller, with the site's steps, so that `make` stays a direct call
    /// (a server's request builds several scoped instances).
    @inline(__always)
    func instance(
        of entry: IndexEntry, for key: ArgumentKey?, chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext], ended: () -> any Error,
        make: (_ sharedWithTasks: Bool) throws -> AnyObject
    ) throws -> AnyObject {
        let request = BuildRequest(entry: .passUnretained(entry), key: key)
        guard let instance = try buildOnce(request, chain: chain, path: path, make: { try make($0.sharedWithTasks) }) else {
            throw ended()
        }
        return instance
    }

    /// What a first look at the slot of a registration without parameters found.
    enum FirstLook {
        /// The instance, built already.
        case built(AnyObject)
        /// The slot, claimed by the resolution asking (`chain`): it builds the instance and
        /// completes the claim (`finish(_:for:make:)`). The chain is unretained, as the
        /// slot's `builder` is: the asking thread's state holds it for the whole build (as its
        /// spare chain, for an outermost resolution, or as the chain of its first frame; see
        /// `GraphEngine.buildClaimed`).
        case claimed((index: Int, sharedWithTasks: Bool), chain: Unmanaged<ResolutionChain>)
        /// Anything else (a build in progress or failed, the scope ended, or a resolution
        /// that may not claim here): the full path (`instance(of:…)`) decides.
        case unsettled
    }

    /// The instance the scope keeps of `entry`, a registration without parameters, when it
    /// is built already; otherwise, when the slot is free and `chain` names the resolution
    /// asking (nil: it may not claim here), the claim of it. One lock for both: most
    /// `.scoped` injections either find their instance or are the first to ask for it.
    ///
    /// `chain` runs under the lock, only when the slot is free.
    @inline(__always)
    func builtInstance(of entry: IndexEntry, claimingFor chain: () -> Unmanaged<ResolutionChain>?) -> FirstLook {
        let locked = lockIfShared()
        defer { if locked { lock.unlock() } }
        switch claim(entry, nil, chain) {
        case .built(let instance): return .built(instance)
        case .claimed(let index, let chain): return .claimed((index, isSharedWithTasks), chain: chain)
        case nil, .wait, .notClaimed: return .unsettled
        }
    }

    /// `instance(of:…)` for asynchronous factories: waits for a build in progress by
    /// suspending instead of blocking the thread.
    func instance(
        of entry: IndexEntry, for key: ArgumentKey?, chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext], ended: () -> any Error,
        make: () async throws -> AnyObject
    ) async throws -> AnyObject {
        let request = BuildRequest(entry: .passUnretained(entry), key: key)
        guard let instance = try await buildOnce(request, chain: chain, path: path, make: { _ in try await make() }) else {
            throw ended()
        }
        return instance
    }

    /// The slot's instance, the build to wait for, or a new claim (with whether the scope
    /// is bound to a task, read under the lock); nil once the scope has ended.
    @inline(__always)
    func nextStep(
        for request: BuildRequest, awaited: inout Void?, chain: ResolutionChain
    ) -> BuildStep<(index: Int, sharedWithTasks: Bool), Void> {
        request.entry._withUnsafeGuaranteedRef { entry in
            // The caller holds `chain` until it completes the claim (see `Slot.builder`).
            switch claim(entry, request.key, { .passUnretained(chain) }) {
            case nil: .answer(nil)
            case .built(let instance): .answer(instance)
            case .claimed(let index, _): .build((index, isSharedWithTasks))
            case .wait(let builder): .wait((), builder: builder)
            case .notClaimed: preconditionFailure("a resolution that names its chain claims a free slot")
            }
        }
    }

    /// Keeps a new instance in its slot, or empties the slot after a failed build; nil when
    /// the scope ended meanwhile (a new instance is then torn down at once).
    @inline(__always)
    func complete(_ claim: (index: Int, sharedWithTasks: Bool), for request: BuildRequest, with instance: AnyObject?) -> AnyObject? {
        request.entry._withUnsafeGuaranteedRef { entry in
            guard let instance else {
                abandon(claim.index)
                return nil
            }
            return kept(instance, in: claim.index, of: entry.record)
        }
    }

    /// Keeps `instance`, built for the claim of slot `index` (see `GraphEngine.buildClaimed`,
    /// which calls it inside the build's frame, where `record` is alive); false when the
    /// scope ended meanwhile: the caller tears the instance down and throws.
    @inline(__always)
    func keep(_ instance: AnyObject, in index: Int, of record: RegistrationRecord) -> Bool {
        complete(index, with: (.passUnretained(instance), .passUnretained(record)))
    }

    /// Ends the claim of slot `index` after its build failed: the slot is left empty, for
    /// the next injection to claim again, and the waiters are woken.
    func abandon(_ index: Int) {
        _ = complete(index, with: nil)
    }

    func enqueue(_ continuation: CheckedContinuation<Void, Never>, for request: BuildRequest, awaiting _: Void) -> Bool {
        request.entry._withUnsafeGuaranteedRef { entry in
            guard !isClosed, let index = position(of: entry, request.key), withSlot(index, { $0.builder != nil })
            else { return false }
            asyncWaiters.append(continuation)
            return true
        }
    }

    /// Finds the instance, claims a free slot for `chain` (the resolution asking, asked only
    /// then; nil: it may not claim), or names the build to wait for; nil once the scope has
    /// ended. The caller holds the lock, or the scope is not shared (`lockIfShared()`).
    @inline(__always)
    private func claim(_ entry: IndexEntry, _ key: ArgumentKey?, _ chain: () -> Unmanaged<ResolutionChain>?) -> SlotClaim? {
        if isClosed { return nil }
        let index = position(of: entry, key)
        if let index {
            let found: SlotClaim? = withSlot(index) { slot in
                if let instance = slot.instance { return .built(instance.takeUnretainedValue()) }
                // Retained here, under the lock: its claimant may complete and let it go once
                // the lock is released (see `ScopeSlot.builder`).
                if let builder = slot.builder { return .wait(for: builder.takeUnretainedValue()) }
                return nil
            }
            if let found { return found }
            // One a failed build left empty: claimed again.
            guard let chain = chain() else { return .notClaimed }
            withSlot(index) { $0.builder = chain }
            return .claimed(index, by: chain)
        }
        // A new slot.
        guard let chain = chain() else { return .notClaimed }
        return .claimed(claimNewSlot(entry, key, by: chain), by: chain)
    }

    /// Keeps a new instance in slot `index`; when the scope ended while it was built, the
    /// instance is torn down at once and nil returned (the caller throws `ended()`).
    @inline(__always)
    private func kept(_ instance: AnyObject, in index: Int, of record: RegistrationRecord) -> AnyObject? {
        if keep(instance, in: index, of: record) { return instance }
        tearDownUnkept(ScopeTeardown(instance, of: record))
        return nil
    }

    /// Runs at once the teardown of an instance built for this scope after it ended, which
    /// no slot keeps (nil when it asks for none); its failure goes to the observer.
    func tearDownUnkept(_ teardown: ScopeTeardown?) {
        teardown?.runSynchronously(in: self)
    }

    /// Stores a built instance of its record (none when the factory threw) in slot `index`,
    /// releases the claim and wakes every waiter; false when the scope has ended.
    ///
    /// The instance and its record come unretained (their builder holds both throughout):
    /// passed as objects, they cost reference counts around the call and inside it, where
    /// the slot needs one each. Inlined, where the reference counts of its caller's values
    /// can be seen.
    @inline(__always)
    private func complete(_ index: Int, with built: (instance: Unmanaged<AnyObject>, record: Unmanaged<RegistrationRecord>)?) -> Bool {
        // Not `instance.flatMap(record.slotTeardown(of:))`: a partial application would count
        // references to the registration.
        var teardown: (asks: Bool, witness: TeardownWitness?) = (false, nil)
        if let built {
            teardown = built.instance._withUnsafeGuaranteedRef { instance in
                built.record._withUnsafeGuaranteedRef { $0.slotTeardown(of: instance) }
            }
        }
        // Locked and unlocked by hand: a closure would capture the registration, and count
        // a reference to it that every core's builds would write.
        let locked = lockIfShared()
        if isClosed {
            if locked { lock.unlock() }
            return false
        }
        // The slot written in place; what it names is retained for the slots (see
        // `ScopeSlots`), and a claimed slot has no instance yet.
        // Retained before the closure, which then captures a plain word (a captured optional
        // witness counted a reference, of nil for most, around every build). A witness comes
        // only with a built instance that asks for a teardown (`slotTeardown(of:)`), which
        // the slot then keeps.
        let witness = teardown.witness.map { Unmanaged.passRetained($0) }
        withSlot(index) { slot in
            slot.builder = nil
            guard let built else { return }
            assert(slot.instance == nil, "a slot's instance is kept once")
            slot.instance = built.instance.retain()
            builtCount += 1
            guard teardown.asks else { return }
            slot.teardownRecord = built.record.retain()
            slot.teardownWitness = witness
            slot.olderTeardown = newestTeardown
            newestTeardown = index
        }
        // Nobody waits while no other thread can reach the scope.
        if locked { unlockWakingWaiters() }
        return true
    }
}
