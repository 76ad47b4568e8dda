import Atomics
internal import _StitcherShims

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Safe release of objects that readers reach through an atomic word without a lock.
///
/// **Reclamation rule** (docs/Reclamation.md has the whole argument):
/// - A reader follows a published word only through `HazardCell.retain(publishedIn:)` or
///   `HazardCell.strongObject(inBoxPublishedIn:)`: one C function announces the pointer in
///   the reader's cell, confirms that the word still publishes it, takes its reference
///   (a retain, or a weak box's strong load) and only then ends the announcement.
/// - A writer that unpublishes an object (an atomic exchange, under the owner's lock)
///   *retires* it here instead of releasing it. `retire` runs a process-wide barrier, reads
///   every cell, and releases what no cell announces; what one announces is waited for
///   briefly, then kept until a later retirement finds it free.
///
/// Announcing costs a reader a plain store where the system has a process-wide barrier
/// (Linux's `membarrier`), which the retiring thread runs; elsewhere a full fence. Readers
/// write only to their own thread's cell, on a cache line of its own.
///
/// In builds with `DEBUG` (tests, sanitizer builds), the addresses of released objects are
/// remembered until published again, and a reader that reaches one traps at the read (see
/// `RetiredAddresses`).
package final class HazardDomain: @unchecked Sendable {
    private let lock = Lock()
    private var cells: [HazardCell] = []
    private var idleCells: [HazardCell] = []
    private var retired: [Unmanaged<AnyObject>] = []

    package init() {
        stitcher_hazard_setup()
        _ = Self.retainsFromC
    }

    /// Whether published reads retain with the runtime's `swift_retain`, called from C:
    /// in release builds, where the runtime exports the symbol and a probe shows that it
    /// retains. Otherwise (and in checked builds, whose Swift path checks retired addresses)
    /// the retain is made by a Swift function that C calls. Decided, with that function
    /// given to C, once per process, before the first cell (and so the first read) exists.
    private static let retainsFromC: Bool = {
        stitcher_hazard_set_retain { object in
            RetiredAddresses.check(object)
            return Unmanaged<AnyObject>.fromOpaque(object).retain().toOpaque()
        }
        #if DEBUG
        stitcher_hazard_set_direct_retain(false)
        return false
        #else
        guard stitcher_hazard_runtime_has_retain() else { return false }
        final class Probe {}
        var probe = Probe()
        let cell = CacheLine.allocate(UnsafeMutableRawPointer?.none)
        defer { CacheLine.deallocate(cell) }
        var word: UnsafeMutableRawPointer? = Unmanaged.passUnretained(probe).toOpaque()
        // Tried before any reader exists (readers need this domain's cells).
        stitcher_hazard_set_direct_retain(true)
        let returned = withUnsafeMutablePointer(to: &word) { stitcher_hazard_retain(cell, $0) }
        // Released only once seen retained: a symbol that did something else is not used,
        // and nothing is over-released.
        guard returned == Unmanaged.passUnretained(probe).toOpaque(), !isKnownUniquelyReferenced(&probe) else {
            stitcher_hazard_set_direct_retain(false)
            return false
        }
        Unmanaged.passUnretained(probe).release()
        let works = isKnownUniquelyReferenced(&probe)
        stitcher_hazard_set_direct_retain(works)
        return works
        #endif
    }()

    /// A cell for the calling thread, reused from a thread that ended when possible.
    package func makeCell() -> HazardCell {
        lock.withLock {
            if let cell = idleCells.popLast() { return cell }
            let cell = HazardCell()
            cells.append(cell)
            return cell
        }
    }

    /// Returns the cell of a thread that is ending.
    package func recycle(_ cell: HazardCell) {
        cell.clear()
        lock.withLock { idleCells.append(cell) }
    }

    /// Releases `object`, which is no longer published, once no reader announces it.
    package func retire(_ object: Unmanaged<AnyObject>) {
        retire(CollectionOfOne(object))
    }

    /// Releases `objects`, which are no longer published, once no reader announces them:
    /// one barrier for all of them. Objects held back by earlier retirements are released
    /// too once no reader announces them, even when `objects` is empty: a graph's last
    /// change may retire nothing, and must still let go of what an earlier one held back.
    package func retire<Objects: Collection>(_ objects: Objects) where Objects.Element == Unmanaged<AnyObject> {
        if objects.isEmpty, lock.withLock({ retired.isEmpty }) { return }
        release(objects)
    }

    /// Releases the objects held back by earlier retirements that no reader announces now.
    package func releaseHeldBack() {
        release(EmptyCollection())
    }

    private func release<Objects: Collection>(_ objects: Objects) where Objects.Element == Unmanaged<AnyObject> {
        // Every object was unpublished before this call; after the barrier, a reader that
        // has not announced one will see its word changed (see `stitcher_hazard_follow`).
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
            for object in releasable { RetiredAddresses.release(object) }
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

    /// Makes every reader announce with a full fence from now on, as where `membarrier` is
    /// missing; retiring threads keep running the barrier, so switching is safe at any time.
    /// For tests of the fallback.
    package static func useSymmetricFences() { stitcher_hazard_use_symmetric_fences() }

    /// Whether published reads retain through the runtime's `swift_retain` from C (release
    /// builds where the probe passed) rather than a Swift function.
    package static var retainsThroughRuntime: Bool { retainsFromC }

    /// Whether readers announce with plain stores covered by `membarrier`.
    package static var usesAsymmetricFences: Bool { stitcher_hazard_uses_asymmetric_fences() != 0 }

    /// How many retired objects are still held back (for tests).
    package var heldBackCount: Int { lock.withLock { retired.count } }
}

/// The pointer one thread is following right now, if any (see `HazardDomain`).
package final class HazardCell: @unchecked Sendable {
    /// Cells live as long as the process: a recycled cell serves the next thread. Alone on
    /// its cache line: the allocator may put another thread's cell, or an object whose
    /// reference count other threads write, next to a block of one word.
    private let word = CacheLine.allocate(UnsafeMutableRawPointer?.none)

    /// The object published in the atomic word at `source`, retained; nil when none is.
    ///
    /// `source` is set to a retained object and later only cleared or exchanged, by a
    /// writer that retires what it takes out through the same domain.
    @inline(__always)
    package func retain(publishedIn source: UnsafeMutableRawPointer) -> AnyObject? {
        guard Self.publishes(source) else { return nil }
        return stitcher_hazard_retain(word, source.assumingMemoryBound(to: UnsafeMutableRawPointer?.self))
            .map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
    }

    /// The object that the `WeakObject` published at `source` refers to, if it is alive.
    @inline(__always)
    package func strongObject(inBoxPublishedIn source: UnsafeMutableRawPointer) -> AnyObject? {
        guard Self.publishes(source) else { return nil }
        let taken = stitcher_hazard_follow(word, source.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)) { box in
            RetiredAddresses.check(box)
            return Unmanaged<WeakObject>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.object }
                .map { Unmanaged.passRetained($0).toOpaque() }
        }
        return taken.map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
    }

    /// Whether the word at `source` publishes anything now: an empty word (an instance not
    /// built yet, a retired entry, a request of a lifetime that publishes nothing) answers
    /// nil inline, without the call into C. Only compared with nil, never followed: the C
    /// read loads the word again under its announcement.
    @inline(__always)
    private static func publishes(_ source: UnsafeMutableRawPointer) -> Bool {
        UnsafeAtomic<UnsafeMutableRawPointer?>(at: source.assumingMemoryBound(to: UnsafeMutableRawPointer?.AtomicRepresentation.self))
            .load(ordering: .relaxed) != nil
    }

    /// Announces `object` (for the primitive's tests; readers use the methods above).
    package func announce(_ object: UnsafeMutableRawPointer) { stitcher_hazard_announce(word, object) }

    /// Ends the announcement.
    package func clear() { stitcher_hazard_clear(word) }

    /// What the cell announces; read by retiring threads after the barrier.
    var announced: UnsafeMutableRawPointer? { stitcher_hazard_read(word) }
}

/// Checked builds only: the addresses of objects released by retirement, until an object
/// is published at the same address again. A reader that reaches one followed a pointer
/// after it was retired: it traps there, with the address, instead of crashing later in
/// `swift_release` or returning a freed object.
///
/// Bounded (the most recent `capacity` addresses); a no-op without `DEBUG`.
package enum RetiredAddresses {
    #if DEBUG
    private static let lock = Lock()
    nonisolated(unsafe) private static var addresses: Set<UnsafeMutableRawPointer> = []
    nonisolated(unsafe) private static var order: [UnsafeMutableRawPointer] = []
    private static let capacity = 1 << 14
    #endif

    /// Releases a retired object, remembering its address when this frees it (an object
    /// also held elsewhere, published by another graph's entry say, stays legitimately
    /// reachable).
    @inline(__always)
    static func release(_ object: Unmanaged<AnyObject>) {
        #if DEBUG
        var strong = object.takeRetainedValue()
        if isKnownUniquelyReferenced(&strong) { note(object.toOpaque()) }
        #else
        object.release()
        #endif
    }

    #if DEBUG
    private static func note(_ address: UnsafeMutableRawPointer) {
        lock.withLock {
            if addresses.insert(address).inserted { order.append(address) }
            if order.count > capacity {
                let dropped = order.count - capacity / 2
                for old in order[..<dropped] { addresses.remove(old) }
                order.removeFirst(dropped)
            }
        }
    }
    #endif

    /// Forgets `address`: a new object is about to be published there.
    @inline(__always)
    package static func republished(_ address: UnsafeMutableRawPointer) {
        #if DEBUG
        lock.withLock { _ = addresses.remove(address) }
        #endif
    }

    /// Traps if the object at `address` was released by retirement and not published since.
    @inline(__always)
    package static func check(_ address: UnsafeMutableRawPointer) {
        #if DEBUG
        let retired = lock.withLock { addresses.contains(address) }
        if retired {
            fatalError("Stitcher: a lock-free reader followed \(address) after it was retired (docs/Reclamation.md)")
        }
        #endif
    }
}
