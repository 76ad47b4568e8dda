/// Receives what happens in a dependency graph: instances created, failures, dependency
/// scopes opened and closed, teardowns.
///
/// Set one with ``DependencyGraph/observer`` (the current graph) or
/// ``DependencyGraph/Context/observer`` (a graph you hold). Every method has an empty default,
/// so an observer implements only what it needs. Methods are called synchronously on the
/// thread where the event happens, without any lock of the graph held; keep them short.
/// While no graph has an observer, the graph spends nothing measurable on observation.
///
/// ```swift
/// final class SlowFactoryLogger: DependencyGraphObserver {
///     func didCreate(_ event: DependencyGraphEvent.InstanceCreated) {
///         if event.duration > .milliseconds(5) { print("slow: \(event.dependency)") }
///     }
/// }
/// DependencyGraph.observer = SlowFactoryLogger()
/// ```
public protocol DependencyGraphObserver: AnyObject, Sendable {
    /// Runs a factory: wraps every instantiation, so that the factory (and everything it
    /// injects) runs inside what the observer sets up, such as a tracing span bound to the
    /// task. Call `factory` exactly once and return (or rethrow) what it does.
    ///
    /// ```swift
    /// func instantiate<R>(_ event: DependencyGraphEvent.Instantiation, _ factory: () throws -> R) rethrows -> R {
    ///     try withSpan("build \(event.dependency)") { _ in try factory() }
    /// }
    /// ```
    func instantiate<R>(_ event: DependencyGraphEvent.Instantiation, _ factory: () throws -> R) rethrows -> R
    /// Runs an asynchronous factory (see ``instantiate(_:_:)``).
    func instantiateAsync<R>(
        _ event: DependencyGraphEvent.Instantiation, _ factory: () async throws -> R
    ) async rethrows -> R
    /// A factory built an instance (for every scope, `.instance` included).
    func didCreate(_ event: DependencyGraphEvent.InstanceCreated)
    /// An injection failed: a factory threw, or nothing matched.
    func didFail(_ event: DependencyGraphEvent.ResolutionFailed)
    /// A dependency scope was opened.
    func didOpenScope(_ event: DependencyGraphEvent.Scope)
    /// A dependency scope ended; its instances were released and torn down.
    func didCloseScope(_ event: DependencyGraphEvent.Scope)
    /// An instance of an ending scope was torn down, or its teardown threw.
    func didTearDown(_ event: DependencyGraphEvent.Teardown)
}

extension DependencyGraphObserver {
    public func instantiate<R>(_ event: DependencyGraphEvent.Instantiation, _ factory: () throws -> R) rethrows -> R {
        try factory()
    }
    public func instantiateAsync<R>(
        _ event: DependencyGraphEvent.Instantiation, _ factory: () async throws -> R
    ) async rethrows -> R {
        try await factory()
    }
    public func didCreate(_ event: DependencyGraphEvent.InstanceCreated) {}
    public func didFail(_ event: DependencyGraphEvent.ResolutionFailed) {}
    public func didOpenScope(_ event: DependencyGraphEvent.Scope) {}
    public func didCloseScope(_ event: DependencyGraphEvent.Scope) {}
    public func didTearDown(_ event: DependencyGraphEvent.Teardown) {}
}

/// The events a ``DependencyGraphObserver`` receives.
public enum DependencyGraphEvent {
    /// A factory is about to run (see ``DependencyGraphObserver/instantiate(_:_:)``).
    public struct Instantiation: Sendable {
        /// The dependency to build.
        public let dependency: InjectionError.DependencyContext
        /// Its scope.
        public let scope: DependencyScope
        /// The dependency whose factory asked for it; nil for an injection made outside any
        /// factory.
        public let parent: InjectionError.DependencyContext?
        /// Whether the factory is asynchronous.
        public let isAsync: Bool
        /// The name of the container that registers it (``DependencyContainer/name``).
        public let container: String
    }

    /// A factory built an instance.
    public struct InstanceCreated: Sendable {
        /// The dependency built.
        public let dependency: InjectionError.DependencyContext
        /// Its scope.
        public let scope: DependencyScope
        /// The dependency whose factory asked for it; nil for an injection made outside any
        /// factory. Together these are the edges of the graph as it is used.
        public let parent: InjectionError.DependencyContext?
        /// The dependency scope that keeps it, for a `.scoped` dependency.
        public let scopeID: Int?
        /// How long its factory ran, the instances it injected included.
        public let duration: Duration
        /// The name of the container that registers it (``DependencyContainer/name``).
        public let container: String
        /// The registrations behind `dependency` and `parent`, which tell apart registrations
        /// that share a locator (read by ``DependencyEdgeRecorder`` for `verify()`).
        let registration: RegistrationRecord
        let parentRegistration: RegistrationRecord?
    }

    /// An injection failed.
    public struct ResolutionFailed: @unchecked Sendable {
        /// What was asked for.
        public let dependency: InjectionError.DependencyContext
        /// The dependency whose factory asked for it; nil at the top.
        public let parent: InjectionError.DependencyContext?
        /// The error the injection throws.
        public let error: any Error
    }

    /// A dependency scope opened or closed.
    public struct Scope: Sendable {
        /// A number that tells scopes apart, unique in the process.
        public let id: Int
        /// How many scopes enclose it (0 for an outermost scope).
        public let depth: Int
        /// When closing: how many `.scoped` registrations it served.
        public let instanceCount: Int
    }

    /// An instance of an ending scope, or of an ending graph, was torn down.
    public struct Teardown: @unchecked Sendable {
        /// The dependency torn down.
        public let dependency: InjectionError.DependencyContext
        /// The scope that ended; nil when the graph itself ended (a child graph, or a graph
        /// made by `DependencyGraph.Context.isolated()`) and tore down what it stored.
        public let scopeID: Int?
        /// What its teardown threw; nil when it succeeded.
        public let error: (any Error)?
    }
}
