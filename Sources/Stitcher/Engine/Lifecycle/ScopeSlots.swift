#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One registration's instance for one set of parameter values, in the slots of a scope
/// (`ScopeSlots`, which owns what its references name).
///
/// A trivial value: the compiler counts none of its references, so that writing a field
/// and ending a scope cost no call per field, nil or not (a slot of counted references
/// cost a scope of five instances about 350 instructions to destroy, 20 releases of nil
/// among them).
struct ScopeSlot {
    /// The registration's entry, by its serial number: the slot does not hold the entry,
    /// whose reference count every core would otherwise write.
    let entry: Int
    /// The parameter values; nil for a registration that takes none (most: no key to copy,
    /// compare or release). Retained by the slots.
    let key: Unmanaged<ScopeSlotKey>?
    /// The resolution building the instance, while one is; unretained.
    ///
    /// **Reclamation rule.** The resolution that claimed the slot holds its chain until it
    /// completes the claim (`ScopeStore.complete(_:with:)`), which clears this field under
    /// the scope's lock (or on the opening thread, while the scope is not shared); any other
    /// reader reads it under that lock and retains it before unlocking (`claim`). So no
    /// reader sees the chain after its claimant let it go. A scope that ended leaves the
    /// field set, but nothing reads the slots of an ended scope. (Retained, the chain cost
    /// every build two reference counts.)
    var builder: Unmanaged<ResolutionChain>?
    /// The instance, once built. Retained by the slots.
    var instance: Unmanaged<AnyObject>?
    /// The registration of an instance that asks to be torn down (for the teardown and its
    /// report); nil for one that asks for none. Retained by the slots.
    var teardownRecord: Unmanaged<RegistrationRecord>?
    /// How to tear the instance down when not by its registration's own witness
    /// (`RegistrationRecord.witness(keptAs:)`): nil for most. Retained by the slots.
    var teardownWitness: Unmanaged<TeardownWitness>?
    /// The slot built before this one that needs a teardown (-1 for none): the slots to
    /// tear down, newest first, with no array of their own.
    var olderTeardown = -1

    @inline(__always)
    init(entry: Int, key: ArgumentKey?, builder: Unmanaged<ResolutionChain>) {
        self.entry = entry
        self.key = key.map { .passRetained(ScopeSlotKey($0)) }
        self.builder = builder
    }

    /// Whether the slot is for `entry` (a serial number) and `key`.
    @inline(__always)
    func isFor(_ entry: Int, _ key: ArgumentKey?) -> Bool {
        guard self.entry == entry else { return false }
        guard let key else { return self.key == nil }
        return self.key?._withUnsafeGuaranteedRef { $0.key == key } ?? false
    }

    /// The slot's parameter values, for the positions table.
    var argumentKey: ArgumentKey? { key?.takeUnretainedValue().key }
}

/// The parameter values of a scope's slot, boxed: a slot holds one reference, not an
/// array and a hash. Only registrations with parameters make one.
final class ScopeSlotKey {
    let key: ArgumentKey
    init(_ key: ArgumentKey) { self.key = key }
}

/// The slots of one dependency scope, in the order they were claimed, and the objects they
/// name: one allocation (a `ManagedBuffer`), moved from a thread's spare to the scope's
/// store, to the `ClosedScope` that ended it and back to a thread's spare; never shared by
/// two of them.
///
/// **Reclamation rule.** A slot's instance, teardown registration, teardown witness and key
/// are retained when they are written (`ScopeSlot.init`, `ScopeStore.complete`) and released
/// once, by `removeAll()` or, for slots still here when the buffer is freed, by `deinit`;
/// nothing else releases them. Readers use them unretained only where the slots are theirs:
/// the store's builders under its lock (or on the opening thread while the scope is not
/// shared), the teardown walk of the ended scope (`ClosedScope.forEachTeardown`) before
/// `removeAll()`, on the same thread or task. A removed slot is past `count`, where no read
/// goes; checked builds overwrite it (`0xDB` bytes), so that a stale read crashes instead of
/// reaching a released object.
final class ScopeSlots: ManagedBuffer<ScopeSlots.Header, ScopeSlot> {
    struct Header {
        var count: Int
        let capacity: Int
    }

    /// Empty slots for `capacity` registrations.
    static func make(capacity: Int) -> ScopeSlots {
        let buffer = create(minimumCapacity: capacity) { _ in Header(count: 0, capacity: capacity) }
        // `create` allocates an instance of the class it is called on.
        return unsafeDowncast(buffer, to: ScopeSlots.self)
    }

    deinit {
        removeAll()
    }

    // The header is read and written through `withUnsafeMutablePointerToHeader`: `header`,
    // a class's stored property, is checked for exclusive access at run time (two runtime
    // calls a use).

    @inline(__always)
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    @inline(__always)
    var isFull: Bool { withUnsafeMutablePointerToHeader { $0.pointee.count == $0.pointee.capacity } }

    /// How many slots fit (ManagedBuffer's `capacity` asks the allocator).
    @inline(__always)
    var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// Calls `body` with slot `index`, in place (no copy of it is made).
    @inline(__always)
    func withSlot<R>(_ index: Int, _ body: (inout ScopeSlot) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, slots in
            precondition(index >= 0 && index < header.pointee.count, "a scope's slot is read within its count")
            return try body(&slots[index])
        }
    }

    /// The position of the slot for `entry` (a serial number) and `key`, if there is one.
    @inline(__always)
    func position(of entry: Int, _ key: ArgumentKey?) -> Int? {
        withUnsafeMutablePointers { header, slots in
            let count = header.pointee.count
            var index = 0
            while index < count {
                if slots[index].isFor(entry, key) { return index }
                index += 1
            }
            return nil
        }
    }

    /// Appends `slot` and returns its position; the caller made room (`isFull`, `grown()`).
    @inline(__always)
    func append(_ slot: ScopeSlot) -> Int {
        withUnsafeMutablePointers { header, slots in
            let index = header.pointee.count
            precondition(index < header.pointee.capacity, "a scope's slots grow before they are full")
            (slots + index).initialize(to: slot)
            header.pointee.count = index + 1
            return index
        }
    }

    /// Slots with twice the room, holding these (moved: this buffer is left empty, and its
    /// `deinit` releases nothing of theirs).
    func grown() -> ScopeSlots {
        withUnsafeMutablePointers { header, old in
            let count = header.pointee.count
            let larger = ScopeSlots.make(capacity: max(8, header.pointee.capacity * 2))
            larger.withUnsafeMutablePointers { largerHeader, slots in
                slots.moveInitialize(from: old, count: count)
                largerHeader.pointee.count = count
            }
            header.pointee.count = 0
            return larger
        }
    }

    /// Calls `body` with the teardown of the slot at `position` or the next older one that
    /// has one (see `ScopeSlot.olderTeardown`), and returns the position after it (-1: none
    /// left; none either once the slots are removed).
    @inline(__always)
    func teardown(after position: Int, _ body: (ClosedScope.UnretainedTeardown) -> Void) -> Int {
        withUnsafeMutablePointers { header, slots in
            var current = position
            while current >= 0 && current < header.pointee.count {
                let slot = slots[current]
                current = slot.olderTeardown
                if let instance = slot.instance, let record = slot.teardownRecord {
                    // The slot's own witness, else the registration's, each read uncounted:
                    // `witness(keptAs:)` with the slot's would return an owned witness,
                    // counted and released around every teardown.
                    let witness =
                        slot.teardownWitness
                        ?? record._withUnsafeGuaranteedRef { $0.witness(keptAs: nil).map(Unmanaged.passUnretained)! }
                    body((instance, record, witness))
                    return current
                }
            }
            return -1
        }
    }

    /// Releases what every slot names, in the order they were claimed, and empties the
    /// slots, keeping their storage.
    func removeAll() {
        withUnsafeMutablePointers { header, slots in
            let count = header.pointee.count
            // Emptied first: a deinitializer the releases run finds no slot here.
            header.pointee.count = 0
            for index in 0..<count {
                let slot = slots[index]
                slot.instance?.release()
                slot.teardownRecord?.release()
                slot.teardownWitness?.release()
                slot.key?.release()
            }
            #if DEBUG
            memset(slots, 0xDB, count * MemoryLayout<ScopeSlot>.stride)
            #endif
        }
    }
}
