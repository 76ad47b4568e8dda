import Atomics

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

/// Whether every instance of `type` is `PostInstantiationAware`.
///
/// The runtime's conformance lookup costs tens of nanoseconds, and registrations made in a
/// loop ask about one type over and over: the last answer is remembered in one word (type
/// metadata is word-aligned, so the low bit of its address holds the answer).
@usableFromInline
func isPostInstantiationAware(_ type: Any.Type) -> Bool {
    let address = UInt(bitPattern: unsafeBitCast(type, to: Int.self))
    let remembered = lastAwarenessAnswer.load(ordering: .relaxed)
    if remembered & ~1 == address { return remembered & 1 != 0 }
    let answer = type is PostInstantiationAware.Type
    lastAwarenessAnswer.store(address | (answer ? 1 : 0), ordering: .relaxed)
    return answer
}

private let lastAwarenessAnswer = UnsafeAtomic<UInt>.create(0)
