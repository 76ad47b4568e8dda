/// Building a scope's instances exactly once: one resolution claims a slot and runs the
/// factory without holding the lock; the others wait, blocked or suspended, and a wait that
/// would close a loop across threads is reported as a cycle (as an index entry's stored
/// instances are built, `IndexEntry+Building.swift`).
extension ScopeStore {
    /// What a claim found: the instance, or the slot this resolution now builds.
    private enum Claim {
        case built(AnyObject)
        case claimed(Int)
        case wait(for: ResolutionChain)
    }

    /// Returns the scope's instance of `entry` for `key` (nil for a registration without
    /// parameters), or builds, keeps and returns one.
    ///
    /// - Parameters:
    ///   - chain: the resolution asking, to detect waits that would deadlock.
    ///   - path: the resolution path that leads here, ending with this entry; kept while
    ///     waiting, so that a cycle across threads is reported whole.
    ///   - ended: the error thrown when the scope has ended.
    ///   - make: builds the instance; told whether the scope is bound to a task, whose child
    ///     tasks, those the factory starts included, see it.
    func instance(
        of entry: IndexEntry, for key: ArgumentKey?, chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext], ended: () -> any Error,
        make: (_ sharedWithTasks: Bool) throws -> AnyObject
    ) throws -> AnyObject {
        lock.lock()
        var index: Int
        while true {
            switch claim(entry, key, chain) {
            case nil:
                lock.unlock()
                throw ended()
            case .built(let instance):
                lock.unlock()
                return instance
            case .claimed(let claimed):
                index = claimed
            case .wait(let builder):
                try WaitRegistry.block(chain, for: builder, on: lock, along: path)
                continue
            }
            break
        }
        let sharedWithTasks = isSharedWithTasks
        lock.unlock()
        let instance: AnyObject
        do {
            instance = try make(sharedWithTasks)
        } catch {
            _ = complete(index, with: nil, of: entry.record)
            throw error
        }
        return try kept(instance, in: index, of: entry.record, ended: ended)
    }

    /// The instance the scope keeps of `entry`, a registration without parameters, when it
    /// is built already; nil otherwise (not built, being built, or the scope has ended).
    @inline(__always)
    func builtInstance(of entry: IndexEntry) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed, let index = position(of: entry, nil) else { return nil }
        return slots[index].instance
    }

    /// `instance(of:…)` for asynchronous factories: waits for a build in progress by
    /// suspending instead of blocking the thread.
    func instance(
        of entry: IndexEntry, for key: ArgumentKey?, chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext], ended: () -> any Error,
        make: () async throws -> AnyObject
    ) async throws -> AnyObject {
        while true {
            switch lock.withLock({ claim(entry, key, chain) }) {
            case nil:
                throw ended()
            case .built(let instance):
                return instance
            case .claimed(let index):
                let instance: AnyObject
                do {
                    instance = try await make()
                } catch {
                    _ = complete(index, with: nil, of: entry.record)
                    throw error
                }
                return try kept(instance, in: index, of: entry.record, ended: ended)
            case .wait(let builder):
                try await WaitRegistry.suspend(chain, for: builder, along: path) { continuation in
                    lock.withLock {
                        guard !isClosed, let index = position(of: entry, key), slots[index].builder != nil else {
                            return false
                        }
                        asyncWaiters.append(continuation)
                        return true
                    }
                }
            }
        }
    }

    /// Finds the instance, claims the slot, or names the build to wait for; nil once the
    /// scope has ended. The caller holds the lock.
    private func claim(_ entry: IndexEntry, _ key: ArgumentKey?, _ chain: ResolutionChain) -> Claim? {
        if isClosed { return nil }
        guard let index = position(of: entry, key) else { return .claimed(claimNewSlot(entry, key, by: chain)) }
        if let instance = slots[index].instance { return .built(instance) }
        if let builder = slots[index].builder { return .wait(for: builder) }
        // A build that failed left the slot empty: try again.
        slots[index].builder = chain
        return .claimed(index)
    }

    /// Keeps a new instance in slot `index`; when the scope ended while it was built, the
    /// instance is torn down at once and `ended()` thrown.
    private func kept(
        _ instance: AnyObject, in index: Int, of record: RegistrationRecord, ended: () -> any Error
    ) throws -> AnyObject {
        if complete(index, with: instance, of: record) { return instance }
        if let teardown = ScopeTeardown(instance, of: record) { _ = ScopeTeardown.runSynchronously([teardown], in: self) }
        throw ended()
    }

    /// Stores a built instance (none when the factory threw) in slot `index`, releases the
    /// claim and wakes every waiter; false when the scope has ended.
    private func complete(_ index: Int, with instance: AnyObject?, of record: RegistrationRecord) -> Bool {
        // Not `instance.flatMap(record.teardown(of:))`: a partial application would count
        // references to the registration.
        var teardown: TeardownWitness?
        if let instance { teardown = record.teardown(of: instance) }
        // Locked and unlocked by hand: a closure would capture the registration, and count
        // a reference to it that every core's builds would write.
        lock.lock()
        if isClosed {
            lock.unlock()
            return false
        }
        slots[index].builder = nil
        if let instance {
            slots[index].instance = instance
            builtCount += 1
            if let teardown {
                slots[index].teardown = (teardown, record)
                slots[index].olderTeardown = newestTeardown
                newestTeardown = index
            }
        }
        lock.broadcast()
        var waiters: [CheckedContinuation<Void, Never>] = []
        if !asyncWaiters.isEmpty { swap(&waiters, &asyncWaiters) }
        lock.unlock()
        for waiter in waiters { waiter.resume() }
        return true
    }
}
