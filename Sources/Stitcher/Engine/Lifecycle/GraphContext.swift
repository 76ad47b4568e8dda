import Atomics

/// Chooses the graph that `DependencyGraph`'s static API works on (the process-wide one, or
/// a graph bound to the current task) and the dependency scope `.scoped` registrations
/// keep their instances in.
///
/// Reading a task-local value costs a runtime call, so reading the graph skips it entirely
/// while no graph is bound anywhere in the process: production code pays one relaxed load.
/// The scope is read only to serve a `.scoped` registration.
enum GraphContext {
    @TaskLocal static var isolated: GraphEngine?
    @TaskLocal static var scope: ScopeStore?

    @inline(__always)
    static var current: GraphEngine {
        if isolatedGraphCount == 0 { return runtime.shared }
        return isolated ?? runtime.shared
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
        if scope !== GraphContext.scope {
            return try $scope.withValue(scope) { try run(graph: graph, scope: scope, body) }
        }
        if graph === current { return try body() }
        addIsolatedGraphs(1)
        defer { addIsolatedGraphs(-1) }
        return try $isolated.withValue(graph) { try body() }
    }

    /// `run(graph:scope:_:)` for asynchronous work.
    static func run<R>(
        graph: GraphEngine, scope: ScopeStore?, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        if scope !== GraphContext.scope {
            return try await $scope.withValue(scope) {
                try await run(graph: graph, scope: scope, isolation: isolation, body)
            }
        }
        if graph === current { return try await body() }
        addIsolatedGraphs(1)
        defer { addIsolatedGraphs(-1) }
        return try await $isolated.withValue(graph) { try await body() }
    }
}
