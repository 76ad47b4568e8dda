/// The engine's half of the asynchronous `withScope` without a container, the scope a
/// server opens for every request: open a scope over the current graph, bound to the task
/// from the start, and end it.
///
/// `withScope` is inlined into its callers and binds the scope itself (`GraphContext
/// .taskScopes`), so that the caller's body is specialized and inlined into the binding, as
/// with a `@TaskLocal` of its own: behind a generic function of this module, every
/// asynchronous call the body makes cost several times more (its frames went through
/// reabstraction thunks, and the task's allocator and executor checks with them).
extension ScopeStore {
    /// Opens a scope over the current graph, nested in the current scope, to bind to a task.
    @usableFromInline
    static func openBoundToTask() -> ScopeStore {
        noteTaskScopeBound()
        return OpenScope(over: GraphContext.unretainedCurrent, in: GraphContext.scope, container: nil, sharedWithTasks: true).store
    }

    /// Ends the scope opened by `openBoundToTask()` whose body returned: its instances are
    /// torn down and released, and the teardown failures thrown. Synchronous, so that the
    /// usual end costs no asynchronous call: when a teardown is asynchronous, the ended
    /// scope is returned instead, for `endBoundToTask(_:awaiting:)` to await its teardowns.
    /// The thread it ends on then keeps its store for its next scope when nothing else holds
    /// it (`ScopeStore.keepForReuse(_:)`): `scope` is handed over, and nil after (unless the
    /// teardowns are left to await).
    @usableFromInline
    static func endBoundToTask(_ scope: inout ScopeStore?) throws -> sending _AwaitedTeardowns? {
        // Moved into the scope's value, not copied: the check counts the references left.
        var open = OpenScope(opened: scope.take().unsafelyUnwrapped)
        guard let closed = try open.endKeepingStoreUnlessAwaiting() else { return nil }
        scope = open.store
        return _AwaitedTeardowns(closed: closed)
    }

    /// Ends the scope `endBoundToTask(_:)` left with asynchronous teardowns: awaits them,
    /// throws their failures, and hands the store over as `endBoundToTask(_:)` does.
    @usableFromInline
    static func endBoundToTask(
        _ scope: inout ScopeStore?, awaiting teardowns: sending _AwaitedTeardowns, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        var open = OpenScope(opened: scope.take().unsafelyUnwrapped)
        try await open.endKeepingStore(awaiting: teardowns.closed)
    }

    /// Ends a scope opened by `openBoundToTask()` whose body threw `error`, rethrown after
    /// the teardowns (whose failures go to the observer).
    @usableFromInline
    func endBoundToTask(rethrowing error: any Error, isolation: isolated (any Actor)? = #isolation) async throws -> Never {
        try await OpenScope(opened: self).endAwaitingTeardown(rethrowing: error)
    }
}

/// A task-bound scope that ended with asynchronous teardowns still to await
/// (`ScopeStore.endBoundToTask(_:awaiting:)`).
@usableFromInline
struct _AwaitedTeardowns {
    let closed: ClosedScope
}
