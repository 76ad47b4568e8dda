#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension DependencyContainer {
    /// Invalidates the container every time `publisher` emits, re-running its builder.
    ///
    /// Returns the container itself, so it reads as a modifier. Containers are reference
    /// types: the invalidation applies wherever the container is active or merged.
    ///
    /// ```swift
    /// DependencyContainer {
    ///     if ObservableModel.shared.isLoggedIn {
    ///         Dependency { LogoutService() }
    ///     }
    /// }
    /// .invalidated(tracking: authenticationStateChangedPublisher)
    /// ```
    @discardableResult
    public func invalidated<P: Publisher>(tracking publisher: P) -> DependencyContainer where P.Failure == Never {
        let subscription = publisher.sink { [weak self] _ in self?.invalidate() }
        retain(subscription: subscription)
        return self
    }

    /// Invalidates the container every time `object` announces a change.
    ///
    /// ```swift
    /// DependencyContainer {
    ///     if ObservableModel.shared.isLoggedIn {
    ///         Dependency { LogoutService() }
    ///     }
    /// }
    /// .invalidated(tracking: ObservableModel.shared)
    /// ```
    @discardableResult
    public func invalidated<Object: ObservableObject>(tracking object: Object) -> DependencyContainer {
        invalidated(tracking: object.objectWillChange)
    }
}
