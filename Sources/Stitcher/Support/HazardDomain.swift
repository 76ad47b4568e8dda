import Atomics
internal import _StitcherShims

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Safe release of objects that readers reach through an atomic pointer without a lock.
///
/// A reader announces the pointer it is about to follow in its thread's `HazardCell`, then
/// checks that the pointer is still the published one before using it. A writer that
/// unpublishes an object *retires* it instead of releasing it; a retired object is
/// released once no cell announces it. Readers write only to their own thread's cell, so
/// readers on different threads never touch a shared cache line.
///
/// Announcing costs a reader a plain store: where the system has a process-wide barrier
/// (Linux's `membarrier`), the retiring thread runs it before reading the cells, which makes
/// every announcement made before it visible, and makes every confirming load made after
/// it see the unpublished word. Elsewhere announcements are full fences.
///
/// Readers hold an announcement for a few instructions (load, compare, retain), so a
/// retiring thread waits briefly for an announced object instead of keeping it: instances
/// are released when the graph lets them go, not at some later retirement. An object still
/// announced after the wait (its reader was descheduled mid-read) is released by the next
/// retirement that finds it free.
final class HazardDomain: @unchecked Sendable {
    private let lock = Lock()
    private var cells: [HazardCell] = []
    private var idleCells: [HazardCell] = []
    private var retired: [Unmanaged<AnyObject>] = []

    init() { stitcher_hazard_setup() }

    /// A cell for the calling thread, reused from a thread that ended when possible.
    func makeCell() -> HazardCell {
        lock.withLock {
            if let cell = idleCells.popLast() { return cell }
            let cell = HazardCell()
            cells.append(cell)
            return cell
        }
    }

    /// Returns the cell of a thread that is ending.
    func recycle(_ cell: HazardCell) {
        cell.clear()
        lock.withLock { idleCells.append(cell) }
    }

    /// Releases `object`, which is no longer published, once no reader announces it.
    func retire(_ object: Unmanaged<AnyObject>) {
        retire(CollectionOfOne(object))
    }

    /// Releases `objects`, which are no longer published, once no reader announces them:
    /// one barrier for all of them.
    func retire<Objects: Collection>(_ objects: Objects) where Objects.Element == Unmanaged<AnyObject> {
        if objects.isEmpty { return }
        stitcher_hazard_barrier()
        var waits = 0
        var pending: [Unmanaged<AnyObject>] = lock.withLock {
            defer { retired.removeAll() }
            return retired + objects
        }
        while true {
            let announced = lock.withLock { Set(cells.compactMap(\.announced)) }
            var held: [Unmanaged<AnyObject>] = []
            var releasable: [Unmanaged<AnyObject>] = []
            for object in pending {
                if announced.contains(object.toOpaque()) { held.append(object) } else { releasable.append(object) }
            }
            // Outside the lock: releasing runs deinitializers.
            for object in releasable { object.release() }
            if held.isEmpty { return }
            waits += 1
            if waits > Self.maximumWaits {
                lock.withLock { retired.append(contentsOf: held) }
                return
            }
            pending = held
            sched_yield()
        }
    }

    /// How many times a retiring thread yields to readers still announcing what it retires.
    private static let maximumWaits = 64

    /// How many retired objects are still held back (for tests).
    var heldBackCount: Int { lock.withLock { retired.count } }
}

/// The pointer one thread is following right now, if any (see `HazardDomain`).
final class HazardCell: @unchecked Sendable {
    /// Cells live as long as the process: a recycled cell serves the next thread. Alone on
    /// its cache line: the allocator may put another thread's cell, or an object whose
    /// reference count other threads write, next to a block of one word.
    private let word = CacheLine.allocate(UnsafeMutableRawPointer?.none)

    /// Announces `object` and returns what `source` publishes now; the caller may follow
    /// the pointer only when that is `object`, and must `clear()` afterwards.
    @inline(__always)
    func protect(_ object: UnsafeMutableRawPointer, publishedBy source: UnsafeAtomic<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer?
    {
        stitcher_hazard_announce(word, object)
        return source.load(ordering: .acquiring)
    }

    @inline(__always)
    func clear() { stitcher_hazard_clear(word) }

    /// What the cell announces; read by retiring threads after the barrier.
    var announced: UnsafeMutableRawPointer? { stitcher_hazard_read(word) }
}
