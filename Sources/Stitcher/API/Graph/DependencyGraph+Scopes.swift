extension DependencyGraph {
    /// Runs `body` in a new dependency scope over the current graph: `.scoped` dependencies
    /// injected in it are built once for it, and released (and torn down) when it ends.
    ///
    /// Open one per unit of work: an HTTP request, a job, a user session. This synchronous
    /// form binds the scope to the thread running `body` (its body can start no child task;
    /// a `Task { … }` started in it does not see the scope); the asynchronous form binds it
    /// to the task and its child tasks. Carry it to threads or tasks you start yourself with
    /// ``currentContext`` and ``Context/run(_:)``. Scopes nest: a scope opened inside another
    /// keeps its own `.scoped` instances.
    ///
    /// With a `container`, its registrations are active inside the scope only, overriding the
    /// graph's registrations of the same identity there; lookups of anything else fall
    /// through to the graph.
    ///
    /// When the body returns or throws, every `.scoped` instance is released and those that
    /// are ``TeardownAware`` are torn down, newest first, once each. A teardown that throws
    /// does not stop the others; if the body returned, the failures are thrown as a
    /// ``ScopeTeardownError``, otherwise the body's error is rethrown and the failures go to
    /// the graph's observer (or standard error).
    ///
    /// ```swift
    /// try DependencyGraph.withScope {
    ///     let transaction: RequestTransaction = try DependencyGraph.inject()
    ///     try transaction.commit()
    /// }   // torn down here
    /// ```
    @discardableResult
    public static func withScope<R>(_ container: DependencyContainer? = nil, _ body: () throws -> R) throws -> R {
        // With no container, the body works on the graph already current: only the scope is
        // bound (a context of its own would cost every request's scope its reference counts).
        guard container == nil else { return try localContext.withScope(container, body) }
        var scope = OpenScope(over: GraphContext.unretainedCurrent, in: GraphContext.scope, container: nil)
        // Bound unretained (see `ThreadState.ScopeBinding`): the scope holds its store.
        let store = Unmanaged.passUnretained(scope.store)
        return try scope.runReusingStore { try store._withUnsafeGuaranteedRef { try GraphContext.run(scope: $0, body) } }
    }

    /// Runs asynchronous `body` in a new dependency scope over the current graph, awaiting
    /// the teardown of its instances (``AsyncTeardownAware`` included) when it ends, also
    /// when its task is cancelled (see the synchronous `withScope`).
    ///
    /// ```swift
    /// router.get("/orders") { request, context in
    ///     try await DependencyGraph.withScope(DependencyContainer { Dependency { request } }) {
    ///         let orders: OrderService = try DependencyGraph.inject()
    ///         return try await orders.list()
    ///     }
    /// }
    /// ```
    @discardableResult @inlinable
    public static func withScope<R>(
        _ container: DependencyContainer? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async throws -> R {
        // As the synchronous form: with no container, only the scope is bound (a request's
        // scope, in a server's middleware, pays no context and no graph binding). Inlined,
        // so that `body` is inlined into the binding (see `ScopeStore.openBoundToTask()`).
        guard container == nil else { return try await currentContext.withScope(container, isolation: isolation, body) }
        // Optional, so that its end can hand the store over (`ScopeStore.endBoundToTask(_:)`).
        var scope: ScopeStore? = ScopeStore.openBoundToTask()
        let value: R
        do {
            value = try await GraphContext.taskScopes.withValue(scope, operation: body, isolation: isolation)
        } catch {
            try await scope.unsafelyUnwrapped.endBoundToTask(rethrowing: error)
        }
        // Ended without an asynchronous call unless a teardown is asynchronous.
        if let teardowns = try ScopeStore.endBoundToTask(&scope) {
            try await ScopeStore.endBoundToTask(&scope, awaiting: teardowns)
        }
        return value
    }
}

extension DependencyGraph.Context {
    /// Runs `body` in a new dependency scope over this context's graph (see
    /// `DependencyGraph.withScope`).
    ///
    /// ```swift
    /// let graph = DependencyGraph.Context.isolated()
    /// try graph.withScope { let session: Session = try DependencyGraph.inject() }
    /// ```
    @discardableResult
    public func withScope<R>(_ container: DependencyContainer? = nil, _ body: () throws -> R) throws -> R {
        let scope = OpenScope(over: graph, in: self.scope, container: container)
        let context = scope.context(heldBy: lifetime)
        return try scope.run {
            try context.run {
                if let container { context.activate(container) }
                return try body()
            }
        }
    }

    /// Runs asynchronous `body` in a new dependency scope over this context's graph (see
    /// `DependencyGraph.withScope`).
    @discardableResult
    public func withScope<R>(
        _ container: DependencyContainer? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async throws -> R {
        let scope = OpenScope(over: graph, in: self.scope, container: container)
        let context = scope.context(heldBy: lifetime)
        return try await scope.run(isolation: isolation) {
            try await context.run(isolation: isolation) {
                if let container { await context.activate(container) }
                return try await body()
            }
        }
    }
}
