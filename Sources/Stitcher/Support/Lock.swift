#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-recursive mutual-exclusion lock with a condition variable.
///
/// Every lock in Stitcher guards a small critical section that never calls user code, so a
/// plain pthread mutex is enough; the condition is used by index entries whose creation is
/// already under way on another thread.
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// - Parameter recursive: whether the thread holding the lock may lock it again.
    init(recursive: Bool = false) {
        // The mutex and its condition alone on a cache line: the striped locks are used by
        // every core, and two locks side by side in the heap would make cores that use
        // different ones take turns at one line.
        assert(Self.conditionOffset + MemoryLayout<pthread_cond_t>.size <= Self.lineSize)
        let line = UnsafeMutableRawPointer.allocate(byteCount: Self.lineSize, alignment: Self.lineSize)
        mutex = line.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        if recursive {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        } else {
            pthread_mutex_init(mutex, nil)
        }
        condition = (line + Self.conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    /// 128 bytes (some processors fetch lines in pairs), the condition after the mutex.
    private static let lineSize = 128
    private static var conditionOffset: Int {
        let end = MemoryLayout<pthread_mutex_t>.size
        let alignment = MemoryLayout<pthread_cond_t>.alignment
        return (end + alignment - 1) / alignment * alignment
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for `broadcast()`; the caller must hold the lock and re-check its predicate.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// `wait()` until the realtime clock reads `deadline`; false once it has passed.
    func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes every thread in `wait()`; the caller must hold the lock.
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// A lock that lives as long as the process (one of the striped locks), used without
/// counting references to it: every request's scope takes one, and counting would make
/// the cores of a server take turns at the lock object's first cache line.
struct ProcessLifetimeLock: @unchecked Sendable {
    private let reference: Unmanaged<Lock>

    init(_ lock: Unmanaged<Lock>) { reference = lock }

    @inline(__always)
    func lock() { reference._withUnsafeGuaranteedRef { $0.lock() } }

    @inline(__always)
    func unlock() { reference._withUnsafeGuaranteedRef { $0.unlock() } }

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for `broadcast()`; the caller must hold the lock and re-check its predicate.
    func wait() { reference._withUnsafeGuaranteedRef { $0.wait() } }

    /// Wakes every thread in `wait()`; the caller must hold the lock.
    func broadcast() { reference._withUnsafeGuaranteedRef { $0.broadcast() } }
}

/// A value guarded by a `Lock`.
final class Protected<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }

    var current: Value { lock.withLock { value } }
}
