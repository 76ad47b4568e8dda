import Atomics

/// The arrays of singletons a graph answered `[Element]` requests with from its current
/// index, kept so that the next request of the same element type returns the same array
/// instead of reading each singleton again and building a new one.
///
/// Only an array whose every element is a singleton's or a managed instance published in
/// the index (a `.published` or `.publishedView` lookup) is kept: such an instance never
/// changes while its entry is in the current index, so the array is what the lookups
/// would answer again. Transient, shared (weak) and scoped elements are built per request.
/// A graph makes its table when it first keeps an array (`GraphEngine.keep`): one that
/// never answers such a request allocates nothing.
///
/// **Reclamation rule.** A kept array (its box, holding the instances) is published in an
/// atomic word and read without a lock through the thread's hazard cell
/// (`HazardCell.retain(publishedIn:)`), by a thread whose cached snapshot is current. It is
/// kept only under the graph's lock, while the snapshot it was built from is the current
/// one and no change is pending (`GraphEngine.keep(_:ofElement:in:)`), and unpublished
/// under that lock whenever the index changes (`GraphEngine.publish`), an overlay's
/// parent publishes (`parentDidPublish`) or a verification sandbox ends: the boxes are
/// retired through `HazardDomain` after the lock is dropped, with the entries that left the
/// graph, so that no array keeps an instance past its registration's retirement. The table
/// itself lives as long as its graph, which every reader holds; what it keeps when the
/// graph is freed is released then.
final class ElementArrays: @unchecked Sendable {
    typealias Word = UnsafeAtomic<UnsafeMutableRawPointer?>

    /// Element types kept per graph: a few per app; a request for a further one builds its
    /// array each time.
    static let capacity = 16

    /// The element types' identities (0: a free slot), written once, under the graph's lock:
    /// a slot stays its type's when its array is cleared.
    private let keys: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
    /// The retained `ElementArrayBox` of each key, nil until kept and once cleared.
    private let boxes: UnsafeMutablePointer<Word.Storage>
    init() {
        keys = .allocate(capacity: Self.capacity)
        keys.initialize(repeating: .init(0), count: Self.capacity)
        boxes = .allocate(capacity: Self.capacity)
        boxes.initialize(repeating: .init(nil), count: Self.capacity)
    }

    deinit {
        // The graph is freed: no reader can reach a box.
        for slot in 0..<Self.capacity {
            if let box = word(slot).load(ordering: .acquiring) { Unmanaged<AnyObject>.fromOpaque(box).release() }
        }
        keys.deinitialize(count: Self.capacity)
        keys.deallocate()
        boxes.deinitialize(count: Self.capacity)
        boxes.deallocate()
    }

    @inline(__always)
    private func key(_ slot: Int) -> UnsafeAtomic<UInt> { UnsafeAtomic(at: keys + slot) }

    @inline(__always)
    private func word(_ slot: Int) -> Word { Word(at: boxes + slot) }

    /// The kept array of the element type `id`, retained, or nil.
    @inline(__always)
    func array(ofElement id: ObjectIdentifier, _ hazard: HazardCell) -> AnyObject? {
        let wanted = UInt(bitPattern: id)
        for slot in 0..<Self.capacity {
            // A key never changes once written: a stale read only misses.
            switch key(slot).load(ordering: .relaxed) {
            case wanted: return hazard.retain(publishedIn: UnsafeMutableRawPointer(boxes + slot))
            case 0: return nil
            default: continue
            }
        }
        return nil
    }

    /// Keeps `box` as the array of the element type `id`, unless one is kept already or the
    /// table is full. The caller holds the graph's lock and checked that `box` was built from
    /// the current index.
    func keep(_ box: AnyObject, ofElement id: ObjectIdentifier) {
        let wanted = UInt(bitPattern: id)
        for slot in 0..<Self.capacity {
            let found = key(slot).load(ordering: .relaxed)
            guard found == wanted || found == 0 else { continue }
            if word(slot).load(ordering: .relaxed) != nil { return }
            let retained = Unmanaged.passRetained(box).toOpaque()
            RetiredAddresses.republished(retained)
            word(slot).store(retained, ordering: .releasing)
            key(slot).store(wanted, ordering: .releasing)
            return
        }
    }

    /// Unpublishes every kept array into `unpublished`, for the caller to retire through
    /// the hazard domain once it drops the graph's lock. The caller holds the graph's lock.
    func clear(into unpublished: inout [Unmanaged<AnyObject>]) {
        for slot in 0..<Self.capacity where key(slot).load(ordering: .relaxed) != 0 {
            if let box = word(slot).exchange(nil, ordering: .acquiringAndReleasing) {
                unpublished.append(Unmanaged.fromOpaque(box))
            }
        }
    }
}

/// An array kept by `ElementArrays`: the `[Element]` a request answered.
@usableFromInline
final class ElementArrayBox<Element>: @unchecked Sendable {
    @usableFromInline let elements: [Element]

    @usableFromInline
    init(_ elements: [Element]) { self.elements = elements }

    /// The elements of `object` when it is a box of `[Element]`; nil otherwise.
    @inlinable @inline(__always)
    static func elements(in object: AnyObject) -> [Element]? {
        guard ObjectIdentifier(type(of: object)) == ObjectIdentifier(Self.self) else { return nil }
        return unsafeDowncast(object, to: Self.self).elements
    }
}
