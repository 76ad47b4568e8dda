import Atomics

/// Safe release of objects that readers reach through an atomic pointer without a lock.
///
/// A reader announces the pointer it is about to follow in its thread's `HazardCell`, then
/// checks that the pointer is still the published one before using it. A writer that
/// replaces a published object *retires* it instead of releasing it; a retired object is
/// released once no cell announces it. Readers write only to their own thread's cell, so
/// readers on different threads never touch a shared cache line, and at most one retired
/// object per thread can be held back.
///
/// Writers are rare (a shared instance was released and a new one built), so every
/// retirement scans all cells.
final class HazardDomain: @unchecked Sendable {
    private let lock = Lock()
    private var cells: [HazardCell] = []
    private var idleCells: [HazardCell] = []
    private var retired: [Unmanaged<AnyObject>] = []

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
        let releasable: [Unmanaged<AnyObject>] = lock.withLock {
            retired.append(object)
            var announced = Set<UnsafeMutableRawPointer>()
            for cell in cells {
                if let pointer = cell.pointer.load(ordering: .sequentiallyConsistent) { announced.insert(pointer) }
            }
            var released: [Unmanaged<AnyObject>] = []
            retired.removeAll { candidate in
                guard !announced.contains(candidate.toOpaque()) else { return false }
                released.append(candidate)
                return true
            }
            return released
        }
        // Outside the lock: releasing runs deinitializers.
        for object in releasable { object.release() }
    }

    /// How many retired objects are still held back (for tests).
    var heldBackCount: Int { lock.withLock { retired.count } }
}

/// The pointer one thread is following right now, if any (see `HazardDomain`).
final class HazardCell: @unchecked Sendable {
    /// Cells live as long as the process: a recycled cell serves the next thread.
    let pointer = UnsafeAtomic<UnsafeMutableRawPointer?>.create(nil)

    /// Announces `object` and returns whether `source` still publishes it; the caller may
    /// follow the pointer only when it does, and must `clear()` afterwards.
    @inline(__always)
    func protect(_ object: UnsafeMutableRawPointer, publishedBy source: UnsafeAtomic<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        pointer.store(object, ordering: .sequentiallyConsistent)
        return source.load(ordering: .sequentiallyConsistent)
    }

    @inline(__always)
    func clear() { pointer.store(nil, ordering: .releasing) }
}
