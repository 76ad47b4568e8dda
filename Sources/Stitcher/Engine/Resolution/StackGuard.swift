#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps deep resolutions from overflowing the thread's stack.
///
/// Each nested instantiation uses a few hundred bytes of stack. Before one starts, the
/// remaining stack is compared with a safety margin; too little left throws
/// ``ResolutionTooDeep`` instead of crashing. The stack's lowest address is read once per
/// thread.
enum StackGuard {
    /// The margin kept free for the factory and for error handling.
    static let margin = 128 * 1024

    /// The lowest usable address of the calling thread's stack, or 0 when unknown.
    static func lowestAddress() -> UInt {
        #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        return top - UInt(pthread_get_stacksize_np(thread))
        #else
        var attributes = pthread_attr_t()
        guard pthreadGetAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
        return UInt(bitPattern: address)
        #endif
    }

    /// Whether less than `margin` bytes of stack are left below the caller.
    @inline(__always)
    static func isNearlyExhausted(lowestAddress: UInt) -> Bool {
        guard lowestAddress != 0 else { return false }
        var marker = 0
        let current = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return current < lowestAddress &+ UInt(margin)
    }
}

#if !canImport(Darwin)
/// glibc and musl declare it only under `_GNU_SOURCE`, which the Swift overlay does not set.
@_silgen_name("pthread_getattr_np")
private func pthreadGetAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif
