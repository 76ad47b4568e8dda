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

    /// Ends the scope after its body: releases its instances, tears down those that ask
    /// (an asynchronous-only teardown is started in a task and reported), then `finish`.
    func end<R>(_ outcome: Result<R, any Error>) throws -> R {
        let (teardowns, count) = store.close()
        return try finish(outcome, instanceCount: count, failures: ScopeTeardown.runSynchronously(teardowns, in: store))
    }

    /// `end(_:)` for an asynchronous scope: asynchronous teardowns are awaited.
    /// Runs in the caller's isolation, so that the body's value need not be sendable.
    func endAwaitingTeardown<R>(
        _ outcome: Result<R, any Error>, isolation: isolated (any Actor)? = #isolation
    ) async throws -> R {
        let (teardowns, count) = store.close()
        return try finish(outcome, instanceCount: count, failures: await ScopeTeardown.run(teardowns, in: store))
    }

    /// The last step, after teardown: the overlay's containers are deactivated, observers
    /// told; the body's value is returned, or its error thrown (teardown failures then go to
    /// the observer), or the teardown failures thrown.
    private func finish<R>(_ outcome: Result<R, any Error>, instanceCount: Int, failures: [ScopeTeardownError.Failure]) throws -> R {
        overlay?.endOverlay()
        base.report(.closed(store, instanceCount: instanceCount))
        switch outcome {
        case .success(let value):
            if !failures.isEmpty { throw ScopeTeardownError(failures: failures) }
            return value
        case .failure(let error):
            base.reportUnthrown(failures)
            throw error
        }
    }
}
