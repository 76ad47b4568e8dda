/// A dependency that wants to run code right after the graph instantiates it.
///
/// `didInstantiate()` is called once for each new instance, before it is stored or returned
/// to anyone, on whichever thread instantiated it.
///
/// ```swift
/// final class EventTrackingService: PostInstantiationAware {
///     func didInstantiate() {
///         sendEvent(named: "App started")
///     }
///     func sendEvent(named: String) {}
/// }
/// ```
public protocol PostInstantiationAware {
    /// Called after the graph instantiated the dependency, before it is injected.
    func didInstantiate()
}
