import Atomics
internal import _StitcherShims

/// Chooses the graph that `DependencyGraph`'s static API works on (the process-wide one, or
/// a graph bound to the current task) and the dependency scope `.scoped` registrations
/// keep their instances in.
///
/// Reading a task-local value costs a runtime call, so reading the graph skips it entirely
/// while no graph is bound anywhere in the process: production code pays one relaxed load.
///
/// **Scopes.** Binding a task-local value costs about a hundred nanoseconds and reading one
/// a few dozen, which would double the cost of a request's scope. A scope opened by
/// asynchronous code is bound to its task (and so to its child tasks); one opened by
/// synchronous code, whose body can start no child task, is bound to the thread running the
/// body instead, with the task that runs it: while a synchronous body runs, no other code of
/// its task runs anywhere, and a job of another task that a nested run loop runs on the
/// thread is told apart by its task. The thread's binding, when it is the current task's,
/// is the innermost: nothing asynchronous runs inside a synchronous body.
@usableFromInline
enum GraphContext {
    @TaskLocal static var isolated: GraphEngine?
    /// The dependency scope bound to the current task. Not a `@TaskLocal` property: the
    /// asynchronous `withScope`, inlined into its callers, binds it.
    @usableFromInline static let taskScopes = TaskLocal<ScopeStore?>(wrappedValue: nil)

    /// The innermost open dependency scope of the calling code, if any.
    @inline(__always)
    static var scope: ScopeStore? {
        // A thread with no state has bound no scope: only a task's can be current.
        guard let state = ThreadState.unretainedCurrent else { return taskScopesWereBound ? taskScopes.get() : nil }
        return state._withUnsafeGuaranteedRef { scope(on: $0) }
    }

    /// `scope`, for a caller that holds the calling thread's state.
    @inline(__always)
    static func scope(on state: ThreadState) -> ScopeStore? {
        unretainedScope(on: state)?.takeUnretainedValue()
    }

    /// `scope(on:)` without counting a reference to the scope, for a caller that uses it
    /// before it returns: the binding that names it holds it until then, whether the
    /// thread's (`run(scope:_:)`, see `ThreadState.ScopeBinding`) or the task's (a task-local
    /// value, bound around the synchronous code that reads it).
    @inline(__always)
    static func unretainedScope(on state: ThreadState) -> Unmanaged<ScopeStore>? {
        if let binding = state.scopeBinding, binding.task == stitcher_current_task() { return binding.scope }
        guard taskScopesWereBound else { return nil }
        guard !state.frames.isEmpty else { return taskScopes.get().map(Unmanaged.passUnretained) }
        return state.taskScopeDuringResolution { taskScopes.get() }
    }

    @inline(__always)
    static var current: GraphEngine {
        if isolatedGraphCount == 0 { return runtime.shared }
        return isolated ?? runtime.shared
    }

    /// `current`, without counting a reference to it (as every request's scope would to the
    /// process-wide graph): valid while the calling task keeps its graph bound.
    @inline(__always)
    static var unretainedCurrent: Unmanaged<GraphEngine> {
        // The task-local binding keeps an isolated graph alive after this read releases it.
        if isolatedGraphCount != 0, let graph = isolated { return .passUnretained(graph) }
        return ThreadState.currentUnretained._withUnsafeGuaranteedRef { $0.sharedGraph }
    }

    /// Resolves in the current graph. Calls on the process-wide graph borrow it instead of
    /// retaining it.
    @inline(__always)
    static func resolve<D>(_ key: LookupKey, _ arguments: InjectionArguments) throws -> D {
        if isolatedGraphCount == 0 {
            return try runtime.shared.resolve(key, arguments)
        }
        return try (isolated ?? runtime.shared).resolve(key, arguments)
    }

    /// Resolves a type in the current graph (see `resolve(_:_:)`).
    @inline(__always)
    static func resolve<D>(type: TypeKey, _ arguments: InjectionArguments) throws -> D {
        if isolatedGraphCount == 0 {
            return try runtime.shared.resolve(type: type, arguments)
        }
        return try (isolated ?? runtime.shared).resolve(type: type, arguments)
    }

    /// Runs `body` with `graph` and `scope` bound to the current task (and its child tasks),
    /// binding only what differs from what is bound already.
    static func run<R>(graph: GraphEngine, scope: ScopeStore?, _ body: () throws -> R) rethrows -> R {
        if scope !== GraphContext.scope { return try run(scope: scope) { try run(graph: graph, scope: scope, body) } }
        if graph === current { return try body() }
        addIsolatedGraphs(1)
        defer { addIsolatedGraphs(-1) }
        return try $isolated.withValue(graph) { try body() }
    }

    /// Runs synchronous `body` with `scope` bound to the calling thread, for the current task
    /// (see `scope`).
    @inline(__always)
    static func run<R>(scope: ScopeStore?, _ body: () throws -> R) rethrows -> R {
        try ThreadState.currentUnretained._withUnsafeGuaranteedRef { state in
            let enclosing = state.scopeBinding
            state.scopeBinding = ThreadState.ScopeBinding(scope: scope.map(Unmanaged.passUnretained), task: stitcher_current_task())
            defer { state.scopeBinding = enclosing }
            return try body()
        }
    }

    /// `run(graph:scope:_:)` for asynchronous work.
    static func run<R>(
        graph: GraphEngine, scope: ScopeStore?, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        if scope !== GraphContext.scope {
            scope?.markSharedWithTasks()
            noteTaskScopeBound()
            return try await taskScopes.withValue(
                scope,
                operation: {
                    try await run(graph: graph, scope: scope, isolation: isolation, body)
                }, isolation: isolation)
        }
        if graph === current { return try await body() }
        addIsolatedGraphs(1)
        defer { addIsolatedGraphs(-1) }
        return try await $isolated.withValue(graph) { try await body() }
    }
}
