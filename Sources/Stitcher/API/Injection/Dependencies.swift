/// A dependency container whose activation follows the property that holds it.
///
/// The container is activated when the property is initialized; assigning a new container
/// deactivates the old one and activates the new one in a single step (a concurrent
/// injection sees the old registrations or the new ones, never neither); when the property's
/// owner is released, the container is deactivated.
///
/// ```swift
/// final class AppDelegate {
///     @Dependencies
///     var container = DependencyContainer {
///         AuthenticationService()
///         Dependency { location in ImageUploadService(targeting: location) }
///             .scope(.instance)
///     }
/// }
/// ```
@propertyWrapper
public struct Dependencies: Sendable {
    private let storage: ManagedContainerStorage

    /// Activates `wrappedValue` in the current graph for as long as this property exists.
    public init(wrappedValue: DependencyContainer) {
        storage = ManagedContainerStorage(wrappedValue)
    }

    /// The active container; assigning another deactivates this one and activates the new one.
    public var wrappedValue: DependencyContainer {
        get { storage.container }
        nonmutating set { storage.replace(with: newValue) }
    }

    /// The wrapper itself, so that `$container.setContainer(…)` works.
    public var projectedValue: Dependencies { self }

    /// Replaces the managed container, returning once the new one is active and its eager
    /// dependencies exist.
    public func setContainer(_ container: DependencyContainer) async {
        storage.replace(with: container)
    }

    /// Replaces the managed container, then calls `completion`.
    public func setContainer(_ container: DependencyContainer, completion: @escaping @Sendable () -> Void) {
        storage.replace(with: container)
        completion()
    }
}

/// Owns the activation of a managed container in the graph that was current when the
/// property was created.
final class ManagedContainerStorage: @unchecked Sendable {
    private let graph: GraphEngine
    private let state: Protected<DependencyContainer>
    /// Serializes replacements, so that concurrent assignments activate and deactivate in
    /// the order they were made.
    private let replacement = Lock()

    init(_ container: DependencyContainer) {
        graph = GraphContext.current
        state = Protected(container)
        graph.activate(container)
    }

    deinit {
        graph.deactivate(state.current)
    }

    var container: DependencyContainer { state.current }

    func replace(with container: DependencyContainer) {
        replacement.withLock {
            let old = state.withLock { current in
                defer { current = container }
                return current
            }
            guard old !== container else { return }
            // One step: concurrent lookups see the old registrations or the new ones.
            graph.activate(container, replacing: old)
        }
    }
}
