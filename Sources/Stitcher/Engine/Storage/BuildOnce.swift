/// Where instances are built exactly once: an index entry's stored instances
/// (`IndexEntry+Building.swift`) and a dependency scope's slots (`ScopeStore+Building.swift`).
///
/// `buildOnce` is the one place that drives a resolution through a site, blocking or
/// suspending: the first resolution claims the build and runs the factory without holding a
/// lock, the others wait for that build (a wait that would close a loop across threads or
/// tasks is reported as a cycle), and the build's end wakes them all. A site says what is
/// kept, what a claim is and what a waiter waits for.
protocol BuildSite: AnyObject {
    /// Which instance of the site is asked for (the parameter values, say).
    associatedtype Request
    /// What the resolution that claimed a build keeps until it completes it.
    associatedtype Claim
    /// The build a waiting resolution waits for.
    associatedtype Awaited

    /// Guards the site's state; `nextStep` and `enqueue` run under it.
    var lock: ProcessLifetimeLock { get }

    /// What the resolution does next: the answer (nil when the site can no longer keep the
    /// instance), a build to wait for, or the build it now claims. `awaited` is the build
    /// it waited for last, if any. Runs under the lock.
    func nextStep(for request: Request, awaited: inout Awaited?, chain: ResolutionChain) -> BuildStep<Claim, Awaited>

    /// Keeps a built instance (none when the factory threw), ends the claim and wakes every
    /// waiter; returns what the claiming resolution answers (nil when the site can no
    /// longer keep it). Runs outside the lock.
    func complete(_ claim: Claim, for request: Request, with instance: AnyObject?) -> AnyObject?

    /// Keeps `continuation` to resume when `awaited` ends; false when it has ended. Runs
    /// under the lock.
    func enqueue(_ continuation: CheckedContinuation<Void, Never>, for request: Request, awaiting awaited: Awaited) -> Bool
}

/// The next step of a resolution at a `BuildSite`.
enum BuildStep<Claim, Awaited> {
    /// The instance to return; nil when the site can no longer keep one.
    case answer(AnyObject?)
    /// Wait for this build, run by `builder`.
    case wait(Awaited, builder: ResolutionChain)
    /// Build: this resolution claimed it.
    case build(Claim)
}

extension BuildSite {
    /// The instance the site keeps for `request`, built by `make` if this resolution claims
    /// the build; nil when the site can no longer keep one.
    ///
    /// - Parameters:
    ///   - chain: the resolution asking, to detect waits that would deadlock.
    ///   - path: the resolution path that leads here; kept while waiting, so that a cycle
    ///     across threads is reported whole.
    @inline(__always)
    func buildOnce(
        _ request: Request, chain: ResolutionChain, path: () -> [InjectionError.DependencyContext],
        make: (Claim) throws -> AnyObject
    ) throws -> AnyObject? {
        let lock = self.lock
        lock.lock()
        var awaited: Awaited?
        let claim: Claim
        waiting: while true {
            switch nextStep(for: request, awaited: &awaited, chain: chain) {
            case .answer(let instance):
                lock.unlock()
                return instance
            case .wait(_, let builder):
                try WaitRegistry.block(chain, for: builder, on: lock, along: path)
            case .build(let claimed):
                claim = claimed
                break waiting
            }
        }
        lock.unlock()
        return try finish(claim, for: request, make: make)
    }

    /// Runs the build this resolution claimed, outside the lock, and completes it: keeps
    /// the instance, or empties the claim when `make` throws (and rethrows); nil when the
    /// site can no longer keep the instance.
    @inline(__always)
    func finish(_ claim: Claim, for request: Request, make: (Claim) throws -> AnyObject) throws -> AnyObject? {
        let instance: AnyObject
        do {
            instance = try make(claim)
        } catch {
            _ = complete(claim, for: request, with: nil)
            throw error
        }
        return complete(claim, for: request, with: instance)
    }

    /// `buildOnce` for asynchronous factories: waits for a build in progress by suspending
    /// instead of blocking the thread.
    func buildOnce(
        _ request: Request, chain: ResolutionChain, path: () -> [InjectionError.DependencyContext],
        make: (Claim) async throws -> AnyObject
    ) async throws -> AnyObject? {
        let lock = self.lock
        var awaited: Awaited?
        while true {
            switch lock.withLock({ nextStep(for: request, awaited: &awaited, chain: chain) }) {
            case .answer(let instance):
                return instance
            case .wait(let build, let builder):
                try await WaitRegistry.suspend(chain, for: builder, along: path) { continuation in
                    lock.withLock { enqueue(continuation, for: request, awaiting: build) }
                }
            case .build(let claim):
                let instance: AnyObject
                do {
                    instance = try await make(claim)
                } catch {
                    _ = complete(claim, for: request, with: nil)
                    throw error
                }
                return complete(claim, for: request, with: instance)
            }
        }
    }
}
