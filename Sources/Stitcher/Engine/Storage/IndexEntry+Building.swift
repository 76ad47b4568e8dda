/// Building an entry's instances exactly once (`BuildSite`): one resolution claims a key
/// and runs the factory without holding a lock; the others wait for that build, blocked or
/// suspended.
///
/// A retired entry answers nil to a new request (the caller asks the registration's current
/// entry, see `GraphEngine.storedInstance`), but a build it had in progress still serves
/// every resolution that was waiting for it (`EntryBuild`).
extension IndexEntry: BuildSite {
    /// An instance of the entry: the parameter values, and whether it is kept strongly
    /// (singleton, managed) or weakly (shared).
    struct BuildRequest {
        let key: ArgumentKey
        let strongly: Bool
    }

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
        try buildOnce(BuildRequest(key: key, strongly: strongly), chain: chain, path: path) { _ in try make() }
    }

    /// `instance(for:…)` for asynchronous factories.
    func instance(
        for key: ArgumentKey,
        strongly: Bool,
        chain: ResolutionChain,
        path: () -> [InjectionError.DependencyContext],
        make: () async throws -> AnyObject
    ) async throws -> AnyObject? {
        try await buildOnce(BuildRequest(key: key, strongly: strongly), chain: chain, path: path) { _ in try await make() }
    }

    /// The awaited build's instance once it is done, whatever happened to the entry
    /// meanwhile; else nil for a retired entry, the stored instance, the build in progress,
    /// or a new claim.
    func nextStep(for request: BuildRequest, awaited: inout EntryBuild?, chain: ResolutionChain) -> BuildStep<EntryBuild, EntryBuild> {
        if let build = awaited {
            guard build.isDone else { return .wait(build, builder: build.chain) }
            if let instance = build.instance { return .answer(instance) }
            // The factory threw: try again.
            awaited = nil
        }
        if isRetired { return .answer(nil) }
        if let existing = storedInstance(for: request.key, strongly: request.strongly, record) { return .answer(existing) }
        if let build = state(creating: false)?.builders[request.key] {
            awaited = build
            return .wait(build, builder: build.chain)
        }
        let build = EntryBuild(chain: chain)
        state(creating: true)!.builders[request.key] = build
        return .build(build)
    }

    /// Stores the instance (unless the entry retired meanwhile), hands it to the build's
    /// waiters and wakes them, blocked or suspended.
    func complete(_ build: EntryBuild, for request: BuildRequest, with instance: AnyObject?) -> AnyObject? {
        let lock = self.lock
        let key = request.key
        let (replaced, waiters): (Unmanaged<AnyObject>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            let replaced = instance.flatMap { store($0, for: key, strongly: request.strongly, record) }
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
        return instance
    }

    func enqueue(_ continuation: CheckedContinuation<Void, Never>, for _: BuildRequest, awaiting build: EntryBuild) -> Bool {
        guard !build.isDone else { return false }
        state(creating: true)!.asyncWaiters.append(continuation)
        return true
    }
}
