/// Where a `Lazy` or `Provider` was injected: the graph and the dependency scope it
/// resolves in when it is called, whatever the calling thread or task has bound then.
///
/// **Reclamation rule.** Both are held strongly and never freed early: a graph or scope
/// *ends* (its instances released, its containers deactivated: `GraphEngine.ended`,
/// `ScopeStore.hasEnded`) when its owner says so, whoever holds the object, so a deferred
/// injection kept by an object keeps only an emptied graph or scope, and a call made after
/// the end is refused (`DeferredInjectionError`) instead of resolving in it.
@usableFromInline
final class InjectionSite: Sendable {
    private let graph: GraphEngine
    private let scope: ScopeStore?
    /// Injected from the process-wide graph (which never ends) outside any scope: the usual
    /// case, checked first.
    let isProcessWideOutsideScopes: Bool

    init(graph: GraphEngine, scope: ScopeStore?) {
        // A deferred injection may be called on any thread: the scope's slots are locked
        // from now on.
        scope?.markSharedAcrossThreads()
        self.graph = graph
        self.scope = scope
        isProcessWideOutsideScopes = scope == nil && graph === runtime.shared
    }

    /// Whether the calling code works on this graph and scope, neither of which ended: then
    /// an injection needs no binding.
    @inline(__always)
    func isCurrent() -> Bool {
        if isProcessWideOutsideScopes { return isolatedGraphCount == 0 && GraphContext.scope == nil }
        guard !graph.ended.load(ordering: .acquiring), graph === GraphContext.current else { return false }
        guard let scope else { return GraphContext.scope == nil }
        return GraphContext.scope === scope && !scope.hasEnded
    }

    /// The graph and scope to resolve in, or why they are gone.
    @inline(__always)
    private func checkLive(_ error: (DeferredInjectionError.Reason) -> DeferredInjectionError) throws {
        if graph.ended.load(ordering: .acquiring) { throw error(.graphEnded) }
        if let scope, scope.hasEnded { throw error(.scopeEnded) }
    }

    /// Runs `body` with the graph and scope of the injection bound (for the factories it
    /// calls), or throws the error naming what ended.
    func run<R>(
        _ error: (DeferredInjectionError.Reason) -> DeferredInjectionError, _ body: (GraphEngine) throws -> R
    ) throws -> R {
        try checkLive(error)
        return try GraphContext.run(graph: graph, scope: scope) { try body(graph) }
    }

    /// `run(_:_:)` for asynchronous work.
    func run<R>(
        isolation: isolated (any Actor)? = #isolation, _ error: (DeferredInjectionError.Reason) -> DeferredInjectionError,
        _ body: (GraphEngine) async throws -> R
    ) async throws -> R {
        try checkLive(error)
        return try await GraphContext.run(graph: graph, scope: scope, isolation: isolation) { try await body(graph) }
    }
}

/// What a `Lazy` or `Provider` resolves: the request and parameters of its injection, and
/// the site it resolves in.
@usableFromInline
struct DeferredRequest: Sendable {
    let site: InjectionSite
    let key: LookupKey
    let arguments: StoredArguments
    /// The deferred type, for errors (`Lazy<Service>`).
    let deferredType: String
    /// A request by type, without parameters of its injection: a call without parameters is
    /// `DependencyGraph.inject(byType:)` where the injection's graph and scope are current.
    @usableFromInline let _injectsByType: Bool
    /// Injected from the process-wide graph outside any scope: a call made there reads the
    /// direct path at once (`DependencyGraph.directObjectOutsideScopes(ofType:)`).
    @usableFromInline let _injectsFromProcessWideGraph: Bool

    /// The request of `key` for `Value`, injected in `graph` (in the innermost open scope).
    init<Value>(for _: Value.Type, key: LookupKey, arguments: InjectionArguments, in graph: GraphEngine, deferredType: String) {
        site = InjectionSite(graph: graph, scope: GraphContext.scope)
        self.key = key.forElement(Value.self)
        self.arguments = StoredArguments(copying: arguments)
        self.deferredType = deferredType
        _injectsByType = key.isType && arguments.isEmpty
        _injectsFromProcessWideGraph = site.isProcessWideOutsideScopes
    }

    /// Whether a call is made from the graph and scope of the injection.
    @usableFromInline
    func _isInPlace() -> Bool { site.isCurrent() }

    private func error(_ reason: DeferredInjectionError.Reason) -> DeferredInjectionError {
        DeferredInjectionError(reason: reason, requested: key.context, deferredType: deferredType)
    }

    /// Resolves a `Value` with `arguments`, or the injection's own when there are none.
    func resolve<Value>(_ arguments: StoredArguments = .none, as _: Value.Type = Value.self) throws -> Value {
        let arguments = arguments.isEmpty ? self.arguments : arguments
        return try site.run(error) { graph in
            try arguments.withArguments { arguments in
                // As `DependencyGraph.inject` does, in the bound graph: its direct path first.
                switch key {
                case .type: try DependencyGraph.inject(byType: Value.self, arguments: arguments)
                case .name(let name): try DependencyGraph.inject(byName: name, arguments: arguments)
                case .value: try graph.resolve(key, arguments)
                }
            }
        }
    }

    /// `resolve(_:as:)`, awaiting an asynchronous factory.
    func resolveAsync<Value>(
        _ arguments: StoredArguments = .none, as _: Value.Type = Value.self, isolation: isolated (any Actor)? = #isolation
    ) async throws -> Value {
        let arguments = arguments.isEmpty ? self.arguments : arguments
        return try await site.run(isolation: isolation, error) { graph in
            try await arguments.withArguments { try await graph.resolveAsync(key, $0) }
        }
    }
}
