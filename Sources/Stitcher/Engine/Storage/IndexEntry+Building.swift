/// Building an entry's instances exactly once: one resolution claims a key and runs the
/// factory without holding a lock; the others wait for that build, blocked or suspended,
/// and a wait that would close a loop across threads is reported as a cycle.
///
/// A retired entry answers nil to a new request (the caller asks the registration's current
/// entry, see `GraphEngine.storedInstance`), but a build it had in progress still serves
/// every resolution that was waiting for it.
extension IndexEntry {
    /// Returns the stored instance for `key`, or builds, stores and returns one; nil when
    /// the entry has left the graph and no build of it is awaited.
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
    ) throws -> AnyObject? {
        let record = self.record
        let lock = self.lock
        lock.lock()
        var awaited: EntryBuild?
        building: while true {
            switch nextStep(for: key, strongly: strongly, awaited: &awaited, record) {
            case .answer(let instance):
                lock.unlock()
                return instance
            case .wait(let build):
                try WaitRegistry.block(chain, for: build.chain, on: lock, along: path)
            case .build:
                break building
            }
        }
        let build = claim(key, chain: chain)
        lock.unlock()
        return try finish(build, for: key, strongly: strongly, record) { try make() }
    }

    /// `instance(for:…)` for asynchronous factories: waits for a build in progress by
    /// suspending instead of blocking the thread.
    func instance(
        for key: ArgumentKey,
        strongly: Bool,
        chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext],
        make: () async throws -> AnyObject
    ) async throws -> AnyObject? {
        let record = self.record
        let lock = self.lock
        var awaited: EntryBuild?
        while true {
            let (step, claimed): (BuildStep, EntryBuild?) = lock.withLock {
                let step = nextStep(for: key, strongly: strongly, awaited: &awaited, record)
                guard case .build = step else { return (step, nil) }
                return (step, claim(key, chain: chain))
            }
            if let claimed {
                let instance: AnyObject
                do {
                    instance = try await make()
                } catch {
                    complete(claimed, for: key, with: nil, strongly: strongly, record)
                    throw error
                }
                complete(claimed, for: key, with: instance, strongly: strongly, record)
                return instance
            }
            switch step {
            case .answer(let instance): return instance
            case .wait(let build):
                try await WaitRegistry.suspend(chain, for: build.chain, along: path) { continuation in
                    lock.withLock {
                        guard !build.isDone else { return false }
                        state(creating: true)!.asyncWaiters.append(continuation)
                        return true
                    }
                }
            case .build:
                preconditionFailure("a build step comes with its claim")
            }
        }
    }

    /// What a resolution does next; the caller holds the lock. `awaited` is the build it
    /// waits for, if any: its instance is the answer once it is done, whatever happened to
    /// the entry meanwhile.
    private func nextStep(
        for key: ArgumentKey, strongly: Bool, awaited: inout EntryBuild?, _ record: RegistrationRecord
    ) -> BuildStep {
        if let build = awaited {
            guard build.isDone else { return .wait(build) }
            if let instance = build.instance { return .answer(instance) }
            // The factory threw: try again.
            awaited = nil
        }
        if isRetired { return .answer(nil) }
        if let existing = storedInstance(for: key, strongly: strongly, record) { return .answer(existing) }
        if let build = state(creating: false)?.builders[key] {
            awaited = build
            return .wait(build)
        }
        return .build
    }

    /// Marks `key` as being built by `chain`; the caller holds the lock.
    private func claim(_ key: ArgumentKey, chain: ResolutionChain) -> EntryBuild {
        let build = EntryBuild(chain: chain)
        state(creating: true)!.builders[key] = build
        return build
    }

    /// Runs `make` for a claimed build and completes it.
    private func finish(
        _ build: EntryBuild, for key: ArgumentKey, strongly: Bool, _ record: RegistrationRecord, make: () throws -> AnyObject
    ) throws -> AnyObject {
        let instance: AnyObject
        do {
            instance = try make()
        } catch {
            complete(build, for: key, with: nil, strongly: strongly, record)
            throw error
        }
        complete(build, for: key, with: instance, strongly: strongly, record)
        return instance
    }

    /// Stores a built instance (none when the factory threw or the entry left the graph),
    /// hands it to the build's waiters, releases the claim on `key` and wakes every waiter,
    /// blocked or suspended.
    private func complete(
        _ build: EntryBuild, for key: ArgumentKey, with instance: AnyObject?, strongly: Bool, _ record: RegistrationRecord
    ) {
        let lock = self.lock
        let (replaced, waiters): (Unmanaged<AnyObject>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            let replaced = instance.flatMap { store($0, for: key, strongly: strongly, record) }
            build.instance = instance
            build.isDone = true
            let state = state(creating: false)
            if state?.builders[key] === build { state?.builders[key] = nil }
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

/// The next step of a resolution of an entry's instance (see `IndexEntry.instance(for:…)`).
private enum BuildStep {
    /// The instance to return; nil when the entry left the graph.
    case answer(AnyObject?)
    /// Wait for this build.
    case wait(EntryBuild)
    /// Nothing stored, nothing in progress: build.
    case build
}
