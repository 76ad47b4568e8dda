#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The snapshot a thread last read, with the generation it was published as.
///
/// Reading the graph's current snapshot through a lock, or through an atomic strong
/// reference, would make every lookup write to memory shared by all threads. Instead each
/// thread keeps its own strong reference, and compares the graph's generation (a plain
/// atomic load) with the one it cached; only when they differ does it take the graph's lock.
/// Generations are unique across graphs, so one cache serves whichever graph a thread uses.
///
/// A cached snapshot stays alive until its thread next reads a graph, which may keep
/// registrations of a deactivated container referenced a little longer on idle threads.
final class SnapshotCache {
    var generation = -1
    var snapshot: IndexSnapshot?

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<SnapshotCache>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<SnapshotCache>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Stitcher could not create its thread-local snapshot cache.")
        return key
    }()

    /// The calling thread's cache.
    @inline(__always)
    static var current: SnapshotCache {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<SnapshotCache>.fromOpaque(pointer).takeUnretainedValue()
        }
        let cache = SnapshotCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }
}
