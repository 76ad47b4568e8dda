/// Building an entry's instances exactly once: one resolution claims a key and runs the
/// factory without holding a lock; the others wait, blocked or suspended, and a wait that
/// would close a loop across threads is reported as a cycle.
extension IndexEntry {
    /// Returns the stored instance for `key`, or builds, stores and returns one.
    ///
    /// - Parameters:
    ///   - strongly: whether the instance is kept strongly (singleton, managed) or weakly (shared).
    ///   - chain: the resolution asking, to detect waits that would deadlock.
    ///   - path: the resolution path that leads here, ending with this entry; kept while
    ///     waiting, so that a cycle across threads is reported whole.
    func instance(
        for key: ArgumentKey,
        strongly: Bool,
        chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext],
        make: () throws -> AnyObject
    ) throws -> AnyObject {
        let record = self.record
        let lock = self.lock
        lock.lock()
        while true {
            if let successor = retiredInFavour {
                lock.unlock()
                return try successor.instance(for: key, strongly: strongly, chain: chain, path: path, make: make)
            }
            if let existing = storedInstance(for: key, strongly: strongly, record) {
                lock.unlock()
                return existing
            }
            guard let builder = state(creating: false)?.builders[key] else { break }
            try WaitRegistry.block(chain, for: builder, on: lock, along: path)
        }
        state(creating: true)!.builders[key] = chain
        lock.unlock()

        let instance: AnyObject
        do {
            instance = try make()
        } catch {
            complete(key, with: nil, strongly: strongly, record)
            throw error
        }
        complete(key, with: instance, strongly: strongly, record)
        return instance
    }

    /// `instance(for:…)` for asynchronous factories: waits for a build in progress by
    /// suspending instead of blocking the thread.
    func instance(
        for key: ArgumentKey,
        strongly: Bool,
        chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext],
        make: () async throws -> AnyObject
    ) async throws -> AnyObject {
        let record = self.record
        let lock = self.lock
        while true {
            let (existing, builder, successor): (AnyObject?, ResolutionChain?, IndexEntry?) = lock.withLock {
                if let successor = retiredInFavour { return (nil, nil, successor) }
                if let existing = storedInstance(for: key, strongly: strongly, record) { return (existing, nil, nil) }
                if let builder = state(creating: false)?.builders[key] { return (nil, builder, nil) }
                state(creating: true)!.builders[key] = chain
                return (nil, nil, nil)
            }
            if let successor {
                return try await successor.instance(for: key, strongly: strongly, chain: chain, path: path, make: make)
            }
            if let existing { return existing }
            guard let builder else { break }
            try await WaitRegistry.suspend(chain, for: builder, along: path) { continuation in
                lock.withLock {
                    guard let state = state(creating: false), state.builders[key] != nil else { return false }
                    state.asyncWaiters.append(continuation)
                    return true
                }
            }
        }
        let instance: AnyObject
        do {
            instance = try await make()
        } catch {
            complete(key, with: nil, strongly: strongly, record)
            throw error
        }
        complete(key, with: instance, strongly: strongly, record)
        return instance
    }

    /// Stores a built instance (none when the factory threw), releases the claim on `key`
    /// and wakes every waiter, blocked or suspended.
    private func complete(_ key: ArgumentKey, with instance: AnyObject?, strongly: Bool, _ record: RegistrationRecord) {
        let lock = self.lock
        let (replaced, waiters): (Unmanaged<AnyObject>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            let replaced = instance.flatMap { store($0, for: key, strongly: strongly, record) }
            let state = state(creating: false)
            state?.builders[key] = nil
            lock.broadcast()
            let waiters = state?.asyncWaiters ?? []
            state?.asyncWaiters.removeAll()
            dropStateIfEmpty()
            return (replaced, waiters)
        }
        if let replaced { runtime.hazards.retire(replaced) }
        for waiter in waiters { waiter.resume() }
    }
}
