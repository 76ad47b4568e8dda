/// A dependency scope from the moment it opens to its end: its store (which knows the
/// graph the scope was opened over), the graph its body works on, and the steps of ending
/// it (teardown, release, the overlay's deactivation, what is thrown), shared by the
/// synchronous and asynchronous `withScope`.
struct OpenScope {
    /// The scope's store; nil only once `keepStoreForReuse()` gave it away.
    private var heldStore: ScopeStore?
    var store: ScopeStore { heldStore.unsafelyUnwrapped }
    /// The graph layered over the store's graph for the container given to the scope, if any.
    let overlay: GraphEngine?
    let container: DependencyContainer?

    /// Opens a scope in `graph`, nested in `parent`, with `container`'s registrations
    /// layered over the graph inside it; `sharedWithTasks` when it is bound to a task from
    /// the start.
    init(over graph: GraphEngine, in parent: ScopeStore?, container: DependencyContainer?, sharedWithTasks: Bool = false) {
        self.init(over: .passUnretained(graph), in: parent, container: container, sharedWithTasks: sharedWithTasks)
    }

    /// `init(over:in:container:sharedWithTasks:)` for a caller that holds the graph.
    init(over graph: Unmanaged<GraphEngine>, in parent: ScopeStore?, container: DependencyContainer?, sharedWithTasks: Bool = false) {
        // Reported through a local, which the report borrows: through the stored property,
        // it counted a reference to the new scope.
        let store = ScopeStore.open(parent: parent, graph: graph, sharedWithTasks: sharedWithTasks)
        store.report(.opened(store))
        heldStore = store
        overlay = container.map { _ in graph.takeUnretainedValue().makeOverlay() }
        self.container = container
    }

    /// The scope `store` opened with no container (see `ScopeStore.openBoundToTask()`).
    init(opened store: ScopeStore) {
        heldStore = store
        overlay = nil
        container = nil
    }

    /// Runs `body` in the scope, then ends it: returns the body's value or rethrows its
    /// error, after the teardowns (see `end()`).
    func run<R>(_ body: () throws -> R) throws -> R {
        let value: R
        do {
            value = try body()
        } catch {
            try end(rethrowing: error)
        }
        try end()
        return value
    }

    /// Gives the store to the calling thread for its next scope, once the scope ended
    /// (`runReusingStore`, or a task-bound scope's end), when nothing else holds it (see
    /// `ScopeStore.keepForReuse(_:)`); `store` must not be read after this. Swapped into the
    /// thread's state, not copied: a copy would count references to the store, atomically,
    /// twice a scope.
    mutating func keepStoreForReuse() {
        ScopeStore.keepForReuse(&heldStore)
    }

    /// `run(_:)`, then the store is given to the calling thread for its next scope
    /// (`keepStoreForReuse()`): for a scope opened and ended by the thread's own code (the
    /// synchronous `withScope`). The scope is not used after this.
    mutating func runReusingStore<R>(_ body: () throws -> R) throws -> R {
        let value = try run(body)
        keepStoreForReuse()
        return value
    }

    /// Ends a task-bound scope whose body returned without suspending, when none of its
    /// teardowns is asynchronous (a server's request scope: its teardowns run here), and
    /// gives the store to the calling thread (`keepStoreForReuse()`); otherwise returns the
    /// ended scope, whose teardowns `endKeepingStore(awaiting:)` awaits. Synchronous, so
    /// that the usual end costs no asynchronous call (a frame from the task's allocator and
    /// a switch to the caller's isolation, twice).
    mutating func endKeepingStoreUnlessAwaiting() throws -> sending ClosedScope? {
        if let awaited = try endUnlessAwaiting(bodyError: nil) { return awaited }
        keepStoreForReuse()
        return nil
    }

    /// Ends the scope as `end()` does, unless a teardown is asynchronous: then the ended
    /// scope, its teardowns not run (`finishAwaiting(_:bodyError:)` runs them). Where every
    /// asynchronous end decides whether it must suspend. (Apart from `keepStoreForReuse()`,
    /// whose check would count the references to the store that this function's code holds.)
    @inline(never)
    private func endUnlessAwaiting(bodyError: (any Error)?) throws -> sending ClosedScope? {
        let closed = store.close()
        if closed.awaitsTeardown { return closed }
        try finishSynchronously(closed, bodyError: bodyError)
        return nil
    }

    /// Awaits the teardowns of the scope `endUnlessAwaiting(bodyError:)` closed, then `finish`.
    private func finishAwaiting(
        _ closed: sending ClosedScope, bodyError: (any Error)?, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        let failures = await ScopeTeardown.run(closed, in: store)
        try finish(closed, failures: failures, bodyError: bodyError)
    }

    /// Ends the scope `endKeepingStoreUnlessAwaiting()` closed: awaits its teardowns, then
    /// gives the store to the calling thread.
    mutating func endKeepingStore(awaiting closed: sending ClosedScope, isolation: isolated (any Actor)? = #isolation) async throws {
        try await finishAwaiting(closed, bodyError: nil)
        keepStoreForReuse()
    }

    /// `run(_:)` for an asynchronous body, whose scope awaits asynchronous teardowns. Runs
    /// in the caller's isolation, so that the body's value need not be sendable.
    func run<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async throws -> R {
        let value: R
        do {
            value = try await body()
        } catch {
            try await endAwaitingTeardown(rethrowing: error)
        }
        try await endAwaitingTeardown()
        return value
    }

    /// The context the scope's body runs in, bound by the opening thread (or task) only.
    func context(heldBy lifetime: HeldGraph?) -> DependencyGraph.Context {
        DependencyGraph.Context(graph: overlay ?? store.graph, localScope: store, lifetime: lifetime)
    }

    /// Ends the scope after its body returned: releases its instances, tears down those
    /// that ask (an asynchronous-only teardown is started in a task and reported), and
    /// throws the teardown failures, if any.
    private func end() throws {
        try finishSynchronously(store.close(), bodyError: nil)
    }

    /// Ends the scope after its body threw `error`, which is rethrown (the teardown failures
    /// go to the observer).
    private func end(rethrowing error: any Error) throws -> Never {
        try finishSynchronously(store.close(), bodyError: error)
        throw error
    }

    /// What ending a scope does after `close()` when nothing is awaited: the teardowns, run
    /// synchronously, then `finish`.
    private func finishSynchronously(_ closed: consuming ClosedScope, bodyError: (any Error)?) throws {
        // The failures first: evaluated as an argument after `closed`, the call would hold a
        // copy of it, and the slots' storage, shared, would not be kept for reuse.
        let failures = closed.runTeardownsSynchronously(in: store)
        try finish(closed, failures: failures, bodyError: bodyError)
    }

    /// `end()` for an asynchronous scope: asynchronous teardowns are awaited (and nothing
    /// is when every teardown is synchronous).
    func endAwaitingTeardown(isolation: isolated (any Actor)? = #isolation) async throws {
        if let closed = try endUnlessAwaiting(bodyError: nil) { try await finishAwaiting(closed, bodyError: nil) }
    }

    /// `end(rethrowing:)` for an asynchronous scope: asynchronous teardowns are awaited.
    func endAwaitingTeardown(
        rethrowing error: any Error, isolation: isolated (any Actor)? = #isolation
    ) async throws -> Never {
        if let closed = try endUnlessAwaiting(bodyError: error) { try await finishAwaiting(closed, bodyError: error) }
        throw error
    }

    /// The last step, after teardown: the overlay's containers are deactivated, observers
    /// told; the teardown failures are thrown if the body returned, reported if it threw.
    /// (Not generic over the body's value: a `Result` of it would cost every scope a
    /// generic-metadata lookup.)
    private func finish(_ closed: consuming ClosedScope, failures: [ScopeTeardownError.Failure], bodyError: (any Error)?) throws {
        overlay?.endOverlay()
        store.report(.closed(store, instanceCount: closed.instanceCount))
        closed.recycle()
        guard !failures.isEmpty else { return }
        if bodyError == nil { throw ScopeTeardownError(failures: failures) }
        store.graph.reportUnthrown(failures)
    }
}
