import Dispatch
import Foundation

/// Whether the calling code runs on the main actor, so that a main-actor factory can be
/// called synchronously.
///
/// The main actor's jobs run on the main dispatch queue, which is not always the main thread:
/// on Linux, once `dispatchMain()` has run (an `async` main, a test runner), the main thread is
/// gone and another thread drains the main queue. So the queue is recognised by a value set
/// on it; the main thread counts too (Apple platforms, and synchronous code on Linux before
/// `dispatchMain()`, such as top-level code).
@inline(__always)
func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: MainQueueMarker.key) != nil
}

private enum MainQueueMarker {
    /// Set on the main queue once, when first read.
    static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()
}

/// A value carried across the main actor's boundary (`MainActor.assumeIsolated`,
/// `MainActor.run`), which passes only `Sendable` values: a factory's arguments and instance,
/// or an injection request, used on one side at a time.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
