extension DependencyGraph.Context {
    /// A new graph layered over this one, for what lives as long as a signed-in user, a
    /// document or a feature flow: it resolves from its own containers first, then from
    /// this graph's, at every level of a build.
    ///
    /// Activate the session's containers in the child; everything else comes from the
    /// parent. A session's `ProfileStore`, autowired, gets the app's `HTTPClient` and the
    /// session's `Credentials`. Activating or deactivating in the child never changes what
    /// the parent resolves: an instance the parent stores (a singleton, a shared one) is
    /// always built in the parent, from the parent's registrations. A parent's singleton
    /// that would inject a dependency only the child registers throws
    /// ``DependencyScopeError`` (``DependencyScopeError/Reason/capturesChildDependency(holder:holderScope:)``),
    /// and `verify()` on the child reports it.
    ///
    /// The child stores its own registrations' instances, and keeps its parent alive. It ends
    /// when the last copy of its context (and of its own children's) goes away, or at
    /// ``end()``: its own child graphs end first, the instances it
    /// keeps strongly are torn down (`TeardownAware`, dependents first) and released, and its
    /// containers deactivated, while the parent keeps everything. `withScope`,
    /// `@Injected(in:)`, `@EagerInjected(in:)`, `releaseInstances()`, observers and tracing
    /// work on a child as on any graph you hold; a child of a child works too.
    ///
    /// ```swift
    /// final class SignedInSession {
    ///     let dependencies = DependencyGraph.currentContext.child()
    ///
    ///     init(credentials: Credentials) {
    ///         dependencies.activate(DependencyContainer(name: "Session") {
    ///             Dependency { credentials }
    ///             Dependency(autowiring: ProfileStore.init).scope(.singleton)
    ///         })
    ///     }
    ///
    ///     func signOut() { dependencies.end() }
    /// }
    /// ```
    public func child() -> DependencyGraph.Context {
        let child = graph.makeChild()
        return DependencyGraph.Context(graph: child, lifetime: HeldGraph(child, keeping: lifetime))
    }

    /// Ends this graph now, when it is a child graph or one made by ``isolated()``, instead
    /// of when the last copy of its context goes away.
    ///
    /// Its child graphs end first. Then each instance it keeps strongly that is
    /// `TeardownAware` (or `AsyncTeardownAware`, started in a task) is torn down, dependents
    /// before their dependencies, its containers are deactivated and its instances released.
    /// An ended child resolves nothing, not even its parent's registrations; a `Lazy` or
    /// `Provider` injected from it throws ``DeferredInjectionError``. Teardown failures go to
    /// the graph's observer (``DependencyGraphObserver/didTearDown(_:)``), or to standard
    /// error when it has none. Ending twice does nothing, and so does ending the
    /// process-wide graph or a dependency scope's context: they end on their own terms.
    public func end() {
        guard let lifetime, scope == nil, lifetime.graph === graph else { return }
        lifetime.graph.end()
    }

    /// Whether this context's graph has ended (see ``end()``).
    public var hasEnded: Bool { graph.ended.load(ordering: .acquiring) }
}
