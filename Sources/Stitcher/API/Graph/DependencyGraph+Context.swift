extension DependencyGraph {
    /// A dependency graph as a value: the one a task or thread works on, or one you create,
    /// hold in a property and pass around.
    ///
    /// `DependencyGraph`'s static API works on the *current* graph: the process-wide one, or
    /// the one bound to the task by ``run(_:)`` (also by `withIsolatedGraph` and
    /// `withScope`). A context names a graph explicitly. ``isolated()`` makes a new, empty
    /// graph, independent of the process-wide one; it ends (its containers deactivated, its
    /// instances released) when the last copy of its context goes away.
    ///
    /// Task-local values do not follow work onto threads you start yourself (`Thread`,
    /// `DispatchQueue.async`, `Task.detached`): capture the context where the graph (and the
    /// dependency scope) is the one you want, and run the work inside it.
    ///
    /// ```swift
    /// let graph = DependencyGraph.Context.isolated()
    /// graph.activate(DependencyContainer { Dependency { InMemoryStore() as Store } })
    /// let store: Store = try graph.inject()
    ///
    /// let context = DependencyGraph.currentContext
    /// DispatchQueue.global().async {
    ///     context.run { let service: Service? = try? DependencyGraph.inject() }
    /// }
    /// ```
    public struct Context: Sendable {
        let graph: GraphEngine
        /// The dependency scope the context serves `.scoped` registrations from.
        let scope: ScopeStore?
        /// Keeps a graph made by `isolated()` alive; ends it with the last copy.
        let lifetime: HeldGraph?

        init(graph: GraphEngine, scope: ScopeStore? = nil, lifetime: HeldGraph? = nil) {
            // A context may be run on any thread: its scope's slots are locked from now on.
            scope?.markSharedAcrossThreads()
            self.init(graph: graph, localScope: scope, lifetime: lifetime)
        }

        /// A context the calling thread uses and lets go, never stored or handed to other
        /// code (a scope's own body, `withScope`'s enclosing scope): its scope is not shared
        /// by it.
        init(graph: GraphEngine, localScope scope: ScopeStore?, lifetime: HeldGraph?) {
            self.graph = graph
            self.scope = scope
            self.lifetime = lifetime
        }

        /// A new, empty graph of its own, independent of the process-wide graph and of every
        /// other: activate containers in it and inject from it.
        ///
        /// The graph lives as long as a copy of the context does (in a property, a
        /// `@Injected(in:)` wrapper, a closure); when the last one goes, its containers are
        /// deactivated and its instances released.
        ///
        /// ```swift
        /// final class Tenant {
        ///     let dependencies = DependencyGraph.Context.isolated()
        ///     init(configuration: TenantConfiguration) {
        ///         dependencies.activate(DependencyContainer { Dependency { configuration } })
        ///     }
        /// }
        /// ```
        public static func isolated() -> Context {
            let graph = GraphEngine()
            return Context(graph: graph, lifetime: HeldGraph(graph))
        }

        /// Runs `body` with this context's graph (and dependency scope) as the current ones.
        public func run<R>(_ body: () throws -> R) rethrows -> R {
            try GraphContext.run(graph: graph, scope: scope, body)
        }

        /// Runs asynchronous `body` with this context's graph (and dependency scope) as the
        /// current ones, for it and the child tasks it starts.
        public func run<R>(
            isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
        ) async rethrows -> R {
            try await GraphContext.run(graph: graph, scope: scope, isolation: isolation, body)
        }

        /// Activates a container in this graph (as `DependencyGraph.activate(_:)` does).
        public func activate(_ container: DependencyContainer) {
            run { _ = graph.activate(container) }
        }

        /// Activates a container in this graph, awaiting its asynchronous and main-actor eager
        /// dependencies (as `await DependencyGraph.activate(_:)` does).
        public func activate(_ container: DependencyContainer) async {
            await run { await DependencyGraph.activate(container) }
        }

        /// Deactivates a container in this graph, releasing the instances it stored.
        public func deactivate(_ container: DependencyContainer) {
            graph.deactivate(container)
        }

        /// Deactivates every container active in this graph.
        public func deactivateAll() {
            graph.deactivateAll()
        }

        /// Whether `container` is active in this graph.
        public func isActive(_ container: DependencyContainer) -> Bool {
            graph.isActive(container)
        }

        /// Releases every instance this graph stores, keeping its containers active (see
        /// ``DependencyGraph/releaseInstances()``).
        public func releaseInstances() {
            graph.releaseInstances()
        }

        /// The observer of this graph, told of every instance created, failure, scope and
        /// teardown in it (and in the scopes opened over it); nil for none.
        public var observer: (any DependencyGraphObserver)? {
            get { graph.settings.observer }
            nonmutating set { graph.settings.observer = newValue }
        }

        /// The configuration of this graph: each option it does not set follows
        /// ``StitcherConfiguration``'s process-wide value.
        public var configuration: GraphConfiguration {
            get { graph.settings.overrides }
            nonmutating set { graph.settings.overrides = newValue }
        }

        /// Injects a dependency located by its type from this graph (any form
        /// `DependencyGraph.inject` takes works inside ``run(_:)``).
        ///
        /// ```swift
        /// let store: Store = try graph.inject()
        /// let uploads: Uploads = try graph.inject(parameters: UploadLocation.avatar)
        /// ```
        public func inject<D, each P>(
            byType type: D.Type = D.self, parameters: repeat each P
        ) throws -> D {
            try run { try DependencyGraph.inject(byType: type, parameters: repeat each parameters) }
        }

        /// Injects a dependency located by name from this graph.
        public func inject<D, each P>(byName name: String, parameters: repeat each P) throws -> D {
            try run { try DependencyGraph.inject(byName: name, parameters: repeat each parameters) }
        }

        /// Injects a dependency associated with `value` from this graph.
        public func inject<D, Value: Hashable, each P>(
            byValue value: Value, parameters: repeat each P
        ) throws -> D {
            try run { try DependencyGraph.inject(byValue: value, parameters: repeat each parameters) }
        }

        /// Injects a dependency located by its type from this graph, awaiting an asynchronous
        /// factory.
        public func injectAsync<D, each P>(
            byType type: D.Type = D.self, parameters: repeat each P
        ) async throws -> D {
            try await run { try await DependencyGraph.injectAsync(byType: type, parameters: repeat each parameters) }
        }
    }

    /// The graph (and dependency scope) the calling task or thread works on.
    public static var currentContext: Context {
        let graph = GraphContext.current
        return Context(graph: graph, scope: GraphContext.scope, lifetime: graph.heldBy)
    }

    /// `currentContext` for the calling thread's own use (see `Context.init(graph:localScope:lifetime:)`).
    static var localContext: Context {
        let graph = GraphContext.current
        return Context(graph: graph, localScope: GraphContext.scope, lifetime: graph.heldBy)
    }
}

/// Owns a graph made by `Context.isolated()` or `Context.child()`: ends it when the last
/// context holding it goes.
final class HeldGraph: Sendable {
    let graph: GraphEngine
    /// For a child graph: what keeps its parent alive, while the child is.
    private let parent: HeldGraph?

    init(_ graph: GraphEngine, keeping parent: HeldGraph? = nil) {
        self.graph = graph
        self.parent = parent
        graph.heldBy = self
    }

    deinit { graph.end() }
}
