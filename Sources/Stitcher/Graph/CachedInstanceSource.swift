/// Where the lock-free path finds the cached instance of a lookup, precomputed when the
/// index is built.
///
/// A lookup can take it when exactly one registration answers it, takes no parameters and
/// produces objects of exactly the requested type: its stored instance is then the answer
/// as is, with no cast and no check of the record. The source is the slot's address with
/// the low bit telling a shared (weakly held) instance from a published one. It is valid as
/// long as the snapshot holding the slot is, which the caller's thread guarantees.
struct CachedInstanceSource: @unchecked Sendable {
    private let bits: UInt

    static let none = CachedInstanceSource(bits: 0)

    private init(bits: UInt) { self.bits = bits }

    /// The source of `list`'s instance for a request of the type with identity `requestedType`.
    init(_ list: EntryList, requestedType: ObjectIdentifier) {
        guard let entry = list.single else { self = .none; return }
        let record = entry.record
        guard record.storesObjects, record.parameterTypes.isEmpty, record.producedType.id == requestedType else {
            self = .none
            return
        }
        let address = UInt(bitPattern: Unmanaged.passUnretained(entry.slot).toOpaque())
        switch record.scope {
        case .singleton, .managed: bits = address
        case .shared: bits = address | 1
        case .instance: bits = 0
        }
    }

    /// The cached instance, retained for the caller, or nil when there is none yet (or the
    /// lookup cannot take this path).
    @inline(__always)
    func instance(_ hazard: HazardCell) -> AnyObject? {
        guard bits != 0 else { return nil }
        let slot = Unmanaged<InstanceSlot>.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~1)!)
        return slot._withUnsafeGuaranteedRef { slot in
            bits & 1 == 0 ? slot.publishedInstance : slot.sharedObject(hazard)
        }
    }
}
