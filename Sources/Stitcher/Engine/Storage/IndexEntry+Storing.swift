/// What an entry stores, read and written under its lock (`IndexEntry.lock`): instances kept
/// in the atomic words (without parameters) or in the state (per parameter values), and
/// their pruning. The lock-free reads are in `IndexEntry.swift`.
extension IndexEntry {
    /// The published instance, read under the lock; the caller holds it.
    private var lockedPublishedInstance: AnyObject? {
        published.load(ordering: .acquiring).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The instances the entry keeps strongly (its published one, and those kept per
    /// parameter values), read under the lock: what an ending graph tears down.
    func stronglyKeptInstances() -> [AnyObject] {
        lock.withLock {
            var found = lockedPublishedInstance.map { [$0] } ?? []
            for case .strong(let instance) in state(creating: false)?.stored.values ?? [] { found.append(instance) }
            return found
        }
    }

    /// Whether the entry may hold something to prune: a state, or a shared instance's weak
    /// reference. Read without the lock: two loads, no object followed.
    var mayStoreInstances: Bool {
        stateBits != 0 || shared.load(ordering: .acquiring) != nil
    }

    /// Drops weak references whose instances were released.
    func pruneReleasedInstances() {
        // Nothing was ever stored (most entries, after a container's activation): no lock.
        // A build storing meanwhile is pruned at the next change, as one that ends later is.
        guard mayStoreInstances else { return }
        let replaced: Unmanaged<AnyObject>? = lock.withLock {
            if let state = state(creating: false) {
                state.stored.keep { stored in
                    if case .weak(let reference) = stored { return reference.object != nil }
                    return true
                }
                dropStateIfEmpty()
            }
            guard let box = shared.load(ordering: .acquiring),
                Unmanaged<WeakObject>.fromOpaque(box).takeUnretainedValue().object == nil
            else { return nil }
            return shared.exchange(nil, ordering: .sequentiallyConsistent).map { Unmanaged.fromOpaque($0) }
        }
        if let replaced { runtime.hazards.retire(replaced) }
    }

    /// Whether the instance for `key` is kept in the atomic words (read without a lock) rather
    /// than in the state behind the lock: only without parameters. (A scope keeps `.scoped`
    /// instances in its own slots, see `ScopeStore`.)
    @inline(__always)
    private func keepsInWords(_ key: ArgumentKey) -> Bool {
        key.values.isEmpty
    }

    /// The instance stored for `key`; the caller holds the lock.
    func storedInstance(for key: ArgumentKey, strongly: Bool, _ record: RegistrationRecord) -> AnyObject? {
        if keepsInWords(key) {
            if strongly { return lockedPublishedInstance }
            // Under the lock no one replaces the reference: no need to announce it.
            return shared.load(ordering: .acquiring)
                .flatMap { Unmanaged<WeakObject>.fromOpaque($0).takeUnretainedValue().object }
                .flatMap(record.restore)
        }
        switch state(creating: false)?.stored[key] {
        case .strong(let instance): return instance
        case .weak(let reference): return reference.object.flatMap(record.restore)
        case nil: return nil
        }
    }

    /// Stores a new instance for `key` and returns the weak reference it replaces, which the
    /// caller retires; the caller holds the lock.
    func store(_ instance: AnyObject, for key: ArgumentKey, strongly: Bool, _ record: RegistrationRecord) -> Unmanaged<AnyObject>? {
        // Built after the entry left the graph: its caller gets it, nothing keeps it.
        if isRetired { return nil }
        switch (keepsInWords(key), strongly) {
        case (true, true):
            let retained = Unmanaged.passRetained(instance).toOpaque()
            RetiredAddresses.republished(retained)
            if !published.compareExchange(expected: nil, desired: retained, ordering: .acquiringAndReleasing).exchanged {
                Unmanaged<AnyObject>.fromOpaque(retained).release()
            }
        case (true, false):
            guard let object = record.weakTarget(instance) else { return nil }
            let box = Unmanaged.passRetained(WeakObject(object)).toOpaque()
            RetiredAddresses.republished(box)
            return shared.exchange(box, ordering: .sequentiallyConsistent).map { Unmanaged.fromOpaque($0) }
        case (false, true):
            state(creating: true)!.stored[key] = .strong(instance)
        case (false, false):
            if let object = record.weakTarget(instance) { state(creating: true)!.stored[key] = .weak(WeakObject(object)) }
        }
        return nil
    }
}
