import Atomics

/// Chooses the graph that `DependencyGraph`'s static API works on: the process-wide one,
/// or the isolated graph bound to the current task.
///
/// Reading a task-local value costs a runtime call, so it is skipped entirely while no
/// isolated graph exists anywhere in the process: production code pays one relaxed load.
enum GraphContext {
    @TaskLocal static var isolated: GraphEngine?

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

    /// Runs `body` with a new, empty graph bound to the current task and its child tasks;
    /// deactivates everything the body activated in it afterwards.
    static func withIsolatedGraph<R>(_ body: () throws -> R) rethrows -> R {
        let graph = GraphEngine()
        defer { graph.deactivateAll() }
        return try DependencyGraph.Context(graph: graph).run(body)
    }

    static func withIsolatedGraph<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        let graph = GraphEngine()
        addIsolatedGraphs(1)
        defer {
            graph.deactivateAll()
            addIsolatedGraphs(-1)
        }
        return try await $isolated.withValue(graph) { try await body() }
    }
}

extension DependencyGraph {
    /// The graph a task or thread works on, captured so that other threads can use it.
    ///
    /// Task-local values do not follow work onto threads you start yourself (`Thread`,
    /// `DispatchQueue.async`, `Task.detached`). Capture the context where the graph is the
    /// one you want, and run the work inside it.
    ///
    /// ```swift
    /// let context = DependencyGraph.currentContext
    /// DispatchQueue.global().async {
    ///     context.run {
    ///         let service: Service? = try? DependencyGraph.inject()
    ///     }
    /// }
    /// ```
    public struct Context: Sendable {
        let graph: GraphEngine

        /// Runs `body` with this context's graph as the current graph.
        public func run<R>(_ body: () throws -> R) rethrows -> R {
            if graph === runtime.shared { return try body() }
            addIsolatedGraphs(1)
            defer { addIsolatedGraphs(-1) }
            return try GraphContext.$isolated.withValue(graph) { try body() }
        }
    }

    /// The graph the calling task or thread works on.
    public static var currentContext: Context { Context(graph: GraphContext.current) }
}
