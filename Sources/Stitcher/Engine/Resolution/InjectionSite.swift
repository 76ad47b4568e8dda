/// Where a `Lazy` or `Provider` was injected: the graph and the dependency scope it
/// resolves in when it is called, whatever the calling thread or task has bound then.
///
/// **Reclamation rule.** Both are held weakly: a deferred injection kept by an object must
/// not keep a graph or a scope, and their instances, alive past their end. A reference that
/// reads nil, a graph marked `ended` or a scope closed is reported as ended
/// (`DeferredInjectionError`); for the length of a call, the strong references read here
/// keep both alive. Swift's weak references are read atomically, and these are written
/// only by `init`.
final class InjectionSite: @unchecked Sendable {
    private weak var graph: GraphEngine?
    private weak var scope: ScopeStore?
    /// Whether a scope was open where it was injected (nil then means it has gone).
    private let injectedInScope: Bool

    init(graph: GraphEngine, scope: ScopeStore?) {
        self.graph = graph
        self.scope = scope
        injectedInScope = scope != nil
    }

    /// The graph and scope to resolve in, or why they are gone.
    private func live(_ error: (DeferredInjectionError.Reason) -> DeferredInjectionError) throws -> (GraphEngine, ScopeStore?) {
        guard let graph, !graph.ended.load(ordering: .acquiring) else { throw error(.graphEnded) }
        guard injectedInScope else { return (graph, nil) }
        guard let scope, !scope.hasEnded else { throw error(.scopeEnded) }
        return (graph, scope)
    }

    /// Runs `body` with the graph and scope of the injection bound (for the factories it
    /// calls), or throws the error naming what ended.
    func run<R>(
        _ error: (DeferredInjectionError.Reason) -> DeferredInjectionError, _ body: (GraphEngine) throws -> R
    ) throws -> R {
        let (graph, scope) = try live(error)
        return try GraphContext.run(graph: graph, scope: scope) { try body(graph) }
    }

    /// `run(_:_:)` for asynchronous work.
    func run<R>(
        isolation: isolated (any Actor)? = #isolation, _ error: (DeferredInjectionError.Reason) -> DeferredInjectionError,
        _ body: (GraphEngine) async throws -> R
    ) async throws -> R {
        let (graph, scope) = try live(error)
        return try await GraphContext.run(graph: graph, scope: scope, isolation: isolation) { try await body(graph) }
    }
}

/// What a `Lazy` or `Provider` resolves: the request and parameters of its injection, and
/// the site it resolves in.
struct DeferredRequest: Sendable {
    let site: InjectionSite
    let key: LookupKey
    let arguments: StoredArguments
    /// The deferred type, for errors (`Lazy<Service>`).
    let deferredType: String

    /// The request of `key` for `Value`, injected in `graph` (in the innermost open scope).
    init<Value>(for _: Value.Type, key: LookupKey, arguments: InjectionArguments, in graph: GraphEngine, deferredType: String) {
        site = InjectionSite(graph: graph, scope: GraphContext.scope)
        self.key = key.forElement(Value.self)
        self.arguments = StoredArguments(copying: arguments)
        self.deferredType = deferredType
    }

    private func error(_ reason: DeferredInjectionError.Reason) -> DeferredInjectionError {
        DeferredInjectionError(reason: reason, requested: key.context, deferredType: deferredType)
    }

    /// Resolves a `Value` with `arguments`, or the injection's own when there are none.
    func resolve<Value>(_ arguments: StoredArguments = .none, as _: Value.Type = Value.self) throws -> Value {
        let arguments = arguments.isEmpty ? self.arguments : arguments
        return try site.run(error) { graph in try arguments.withArguments { try graph.resolve(key, $0) } }
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
