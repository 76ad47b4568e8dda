/// A dependency scope from the moment it opens to its end: its store, the graph its body
/// works on, and the steps of ending it (teardown, release, the overlay's deactivation,
/// what is thrown), shared by the synchronous and asynchronous `withScope`.
struct OpenScope {
    let store: ScopeStore
    /// The graph the scope was opened over.
    let base: GraphEngine
    /// The graph layered over `base` for the container given to the scope, if any.
    let overlay: GraphEngine?
    let container: DependencyContainer?

    init(over context: DependencyGraph.Context, container: DependencyContainer?) {
        base = context.graph
        store = ScopeStore(parent: context.scope, graph: context.graph)
        overlay = container.map { _ in context.graph.makeOverlay() }
        self.container = container
        base.report(.opened(store))
    }

    /// The context the scope's body runs in.
    func context(heldBy lifetime: HeldGraph?) -> DependencyGraph.Context {
        DependencyGraph.Context(graph: overlay ?? base, scope: store, lifetime: lifetime)
    }

    /// Ends the scope after its body returned: releases its instances, tears down those
    /// that ask (an asynchronous-only teardown is started in a task and reported), and
    /// throws the teardown failures, if any.
    func end() throws {
        let closed = store.close()
        try finish(closed, failures: ScopeTeardown.runSynchronously(closed, in: store), bodyError: nil)
    }

    /// Ends the scope after its body threw `error`, which is rethrown (the teardown failures
    /// go to the observer).
    func end(rethrowing error: any Error) throws -> Never {
        let closed = store.close()
        try finish(closed, failures: ScopeTeardown.runSynchronously(closed, in: store), bodyError: error)
        throw error
    }

    /// `end()` for an asynchronous scope: asynchronous teardowns are awaited.
    func endAwaitingTeardown(isolation: isolated (any Actor)? = #isolation) async throws {
        let closed = store.close()
        try finish(closed, failures: await ScopeTeardown.run(closed, in: store), bodyError: nil)
    }

    /// `end(rethrowing:)` for an asynchronous scope: asynchronous teardowns are awaited.
    func endAwaitingTeardown(rethrowing error: any Error, isolation: isolated (any Actor)? = #isolation) async throws -> Never {
        let closed = store.close()
        try finish(closed, failures: await ScopeTeardown.run(closed, in: store), bodyError: error)
        throw error
    }

    /// The last step, after teardown: the overlay's containers are deactivated, observers
    /// told; the teardown failures are thrown if the body returned, reported if it threw.
    /// (Not generic over the body's value: a `Result` of it would cost every scope a
    /// generic-metadata lookup.)
    private func finish(_ closed: ClosedScope, failures: [ScopeTeardownError.Failure], bodyError: (any Error)?) throws {
        overlay?.endOverlay()
        base.report(.closed(store, instanceCount: closed.instanceCount))
        guard !failures.isEmpty else { return }
        if bodyError == nil { throw ScopeTeardownError(failures: failures) }
        base.reportUnthrown(failures)
    }
}
