#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// The composite of every active dependency container, and the entry point for activating
/// containers and injecting dependencies.
///
/// Activation is synchronous: when `activate(_:)` returns, every registration of the
/// container is injectable and its eager dependencies exist. Lookups read an immutable
/// index snapshot without locks.
///
/// ```swift
/// let container = DependencyContainer {
///     Dependency { AccountService() }.named("account-service")
/// }
/// DependencyGraph.activate(container)
/// let service: AccountService = try DependencyGraph.inject(byName: "account-service")
/// DependencyGraph.deactivate(container)
/// ```
public enum DependencyGraph {
    /// Activates a container: its registrations become injectable and its eager
    /// dependencies are instantiated before this returns.
    ///
    /// A registration with the same locator and parameter types as one already active
    /// replaces it while this container is active. Activating an active container again
    /// makes it the most recently activated one.
    public static func activate(_ container: DependencyContainer) {
        GraphContext.current.activate(container)
    }

    /// Activates a container, then calls `completion`.
    public static func activate(_ container: DependencyContainer, completion: @escaping @Sendable () -> Void) {
        GraphContext.current.activate(container)
        completion()
    }

    /// Activates a container; returns once it is indexed and its eager dependencies exist,
    /// those with asynchronous factories and those isolated to the main actor (built there)
    /// included.
    public static func activate(_ container: DependencyContainer) async {
        let graph = GraphContext.current
        for entry in graph.activate(container) where !entry.record.runsSynchronouslyHere {
            // A failure surfaces again, as an error, when the dependency is injected.
            _ = try? await graph.instanceAwaitingFactory(of: entry, .none)
        }
    }

    /// Deactivates a container, releasing the instances the graph stored for it.
    ///
    /// Returns once those instances are released: also the ones a change made just before
    /// on another thread (such as the rebuild of an invalidated container) was still
    /// releasing, waited for up to 2 seconds. Instances held elsewhere live on with their
    /// holders.
    ///
    /// ```swift
    /// DependencyGraph.deactivate(sessionContainer)   // the session's singletons are gone
    /// ```
    public static func deactivate(_ container: DependencyContainer) {
        GraphContext.current.deactivate(container)
    }

    /// Deactivates every active container, releasing the instances the graph stored.
    ///
    /// Returns once those instances are released, as ``deactivate(_:)`` does.
    ///
    /// ```swift
    /// DependencyGraph.deactivateAll()
    /// ```
    public static func deactivateAll() {
        GraphContext.current.deactivateAll()
    }

    /// Drops stored references to shared instances that were released elsewhere.
    public static func releaseUnusedStorage() {
        GraphContext.current.releaseUnusedStorage()
    }

    /// Releases every instance the current graph stores (singletons, managed and shared
    /// instances), keeping its containers active: the next injection of each builds anew.
    ///
    /// Eager dependencies are not rebuilt until injected. Instances held elsewhere live on
    /// with their holders; the graph forgets them at once, also when an idle thread last
    /// resolved them. Returns once they are released, as ``deactivate(_:)`` does.
    ///
    /// ```swift
    /// DependencyGraph.releaseInstances()   // for example when the user signs out
    /// let session: Session = try DependencyGraph.inject()   // a new one
    /// ```
    public static func releaseInstances() {
        GraphContext.current.releaseInstances()
    }

    /// Whether `container` is active in the current graph.
    public static func isActive(_ container: DependencyContainer) -> Bool {
        GraphContext.current.isActive(container)
    }

    /// Emits after every activation, deactivation, invalidation and managed-scope reset.
    ///
    /// ```swift
    /// let subscription = DependencyGraph.graphChangedPublisher.sink { reloadServices() }
    /// ```
    public static var graphChangedPublisher: AnyPublisher<Void, Never> {
        GraphContext.current.changes.eraseToAnyPublisher()
    }

    /// The same changes as ``graphChangedPublisher``, as an `AsyncSequence`.
    ///
    /// ```swift
    /// for await _ in DependencyGraph.graphChanges { reloadServices() }
    /// ```
    public static var graphChanges: AsyncStream<Void> {
        GraphContext.current.changeStream.stream()
    }

    /// Runs `body` against a new, empty graph of its own, bound to the current task and
    /// inherited by its child tasks; everything activated in it is deactivated afterwards.
    ///
    /// Tests use it to activate containers in parallel without seeing each other's.
    ///
    /// ```swift
    /// @Test func loadsProfile() throws {
    ///     try DependencyGraph.withIsolatedGraph {
    ///         DependencyGraph.activate(DependencyContainer { Dependency { FakeProfileStore() } })
    ///         // …
    ///     }
    /// }
    /// ```
    public static func withIsolatedGraph<R>(_ body: () throws -> R) rethrows -> R {
        let context = Context.isolated()
        defer { context.deactivateAll() }
        return try context.run(body)
    }

    /// Runs `body` against a new, empty graph of its own (see the synchronous `withIsolatedGraph(_:)`).
    public static func withIsolatedGraph<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        let context = Context.isolated()
        defer { context.deactivateAll() }
        return try await context.run(isolation: isolation, body)
    }

    /// The observer of the current graph (see ``DependencyGraphObserver``); nil for none.
    ///
    /// ```swift
    /// let recorder = DependencyEdgeRecorder()
    /// DependencyGraph.observer = recorder
    /// ```
    public static var observer: (any DependencyGraphObserver)? {
        get { GraphContext.current.settings.observer }
        set { GraphContext.current.settings.observer = newValue }
    }
}
