/// Several observers of one graph, each told every event in order.
///
/// A graph has one observer: group them to record edges, log and trace at once. Each
/// observer's ``DependencyGraphObserver/instantiate(_:_:)`` wraps the next one's, the first
/// outermost, so a span the first opens encloses what the others do.
///
/// ```swift
/// let recorder = DependencyEdgeRecorder()
/// DependencyGraph.observer = DependencyGraphObserverGroup(recorder, DependencyLogger(logger: logger))
/// ```
public final class DependencyGraphObserverGroup: DependencyGraphObserver {
    /// The observers, told in this order.
    public let observers: [any DependencyGraphObserver]

    /// A group telling `observers` every event, in order.
    public init(_ observers: [any DependencyGraphObserver]) {
        self.observers = observers
    }

    /// A group telling `observers` every event, in order.
    public convenience init(_ observers: any DependencyGraphObserver...) {
        self.init(observers)
    }

    public func instantiate<R>(_ event: DependencyGraphEvent.Instantiation, _ factory: () throws -> R) rethrows -> R {
        try Self.nest(observers[...], event, factory)
    }

    public func instantiateAsync<R>(
        _ event: DependencyGraphEvent.Instantiation, _ factory: () async throws -> R
    ) async rethrows -> R {
        try await Self.nestAsync(observers[...], event, factory)
    }

    private static func nest<R>(
        _ observers: ArraySlice<any DependencyGraphObserver>, _ event: DependencyGraphEvent.Instantiation,
        _ factory: () throws -> R
    ) rethrows -> R {
        guard let first = observers.first else { return try factory() }
        return try first.instantiate(event) { try nest(observers.dropFirst(), event, factory) }
    }

    private static func nestAsync<R>(
        _ observers: ArraySlice<any DependencyGraphObserver>, _ event: DependencyGraphEvent.Instantiation,
        _ factory: () async throws -> R
    ) async rethrows -> R {
        guard let first = observers.first else { return try await factory() }
        return try await first.instantiateAsync(event) { try await nestAsync(observers.dropFirst(), event, factory) }
    }

    public func didCreate(_ event: DependencyGraphEvent.InstanceCreated) {
        for observer in observers { observer.didCreate(event) }
    }

    public func didFail(_ event: DependencyGraphEvent.ResolutionFailed) {
        for observer in observers { observer.didFail(event) }
    }

    public func didOpenScope(_ event: DependencyGraphEvent.Scope) {
        for observer in observers { observer.didOpenScope(event) }
    }

    public func didCloseScope(_ event: DependencyGraphEvent.Scope) {
        for observer in observers { observer.didCloseScope(event) }
    }

    public func didTearDown(_ event: DependencyGraphEvent.Teardown) {
        for observer in observers { observer.didTearDown(event) }
    }
}

extension DependencyGraphObserver {
    /// The edge recorder this observer is, or the first one of its group.
    var edgeRecorder: DependencyEdgeRecorder? {
        if let recorder = self as? DependencyEdgeRecorder { return recorder }
        return (self as? DependencyGraphObserverGroup)?.observers.lazy.compactMap(\.edgeRecorder).first
    }
}
