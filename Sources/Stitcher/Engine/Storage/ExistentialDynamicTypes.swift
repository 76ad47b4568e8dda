internal import _StitcherShims

/// Where a value of an existential type (`any P`) keeps its dynamic type, learnt per
/// existential from the runtime's answers, so that a new value's type is read without
/// asking the runtime.
///
/// A registration made as `Impl() as any P` produces values whose dynamic type may be
/// `PostInstantiationAware`, which `UnawareTypes` tells from the type. Asking the runtime
/// for it (`type(of: value as Any)`) boxes an opaque existential into an `Any` (a heap
/// allocation: `any P` is larger than `Any`'s buffer) and walks it, several times the
/// value's own cost. But an existential holds its dynamic type at a place that depends on
/// the existential alone, in Swift's stable layout: an opaque existential has the value's
/// type metadata after its three-word buffer; a class-bound one holds the instance's
/// reference in its first word, whose class is the type.
///
/// Checked, not assumed: each answer the runtime gives (`learn(_:from:as:)`, on the slow
/// path) is compared with the word the layout names; an existential's place is used only
/// once two answers agreed with it, and forgotten when one disagrees. Reading the opaque
/// place compares an address with `UnawareTypes`' table and dereferences nothing; the
/// class-bound place is dereferenced (its class read) only once verified, as
/// `ExistentialTemplates` trusts a verified template. On a runtime that lays existentials
/// out otherwise, nothing verifies and every value is asked about, as before.
///
/// The places live in a small table shared by every graph (`stitcher_existential_places`): a
/// slot per existential chosen by its identity, overwritten on a collision (then learnt
/// again, never wrongly used: a slot names its existential). Relaxed atomics: a slot is one
/// word, and publishes nothing else; it changes only by compare-and-exchange from the state
/// its writer read.
@usableFromInline
enum ExistentialDynamicTypes {
    /// A slot's low bits, beside the existential's identity (metadata is 8-byte aligned).
    private static let agreedOnce: UInt = 0b001
    private static let verified: UInt = 0b010
    /// Set when the place is the class-bound one (a reference in the first word).
    private static let referenceFirst: UInt = 0b100
    private static let flags: UInt = 0b111

    /// The bytes of an opaque existential's inline buffer, after which its type lies.
    private static let bufferSize = 3 * MemoryLayout<UInt>.stride

    /// The slot of the existential with identity `id` (its address; the table masks it).
    @inline(__always)
    private static func slot(_ id: UInt) -> UInt { id >> 4 }

    /// Whether the value whose bytes are `bytes`, of the existential type `existential`, is
    /// of a type `UnawareTypes` knows not to be `PostInstantiationAware`; false when the
    /// existential's place is not verified (then ask the runtime, and `learn`).
    @usableFromInline
    static func isKnownUnaware(_ bytes: UnsafeRawBufferPointer, as existential: Any.Type) -> Bool {
        let id = UInt(bitPattern: ObjectIdentifier(existential))
        let state = stitcher_existential_place(slot(id))
        guard state & ~flags == id, state & verified != 0 else { return false }
        if state & referenceFirst == 0 {
            guard bytes.count >= bufferSize + MemoryLayout<UInt>.size else { return false }
            return UnawareTypes.isKnownUnaware(address: bytes.load(fromByteOffset: bufferSize, as: UInt.self))
        }
        guard bytes.count >= MemoryLayout<UInt>.size, let reference = bytes.load(as: UnsafeRawPointer?.self) else { return false }
        let object = Unmanaged<AnyObject>.fromOpaque(reference).takeUnretainedValue()
        return UnawareTypes.isKnownUnaware(Swift.type(of: object))
    }

    /// Compares the runtime's answer, `value`'s dynamic type, with the place the layout names
    /// in `bytes` (the same value as the existential `existential`): a second agreement
    /// verifies the place, a disagreement forgets it.
    static func learn(_ bytes: UnsafeRawBufferPointer, from value: Any, as existential: Any.Type) {
        guard MetadataKind.isExistential(existential) else { return }
        let type = Swift.type(of: value)
        let place: UInt?
        if bytes.count >= bufferSize + MemoryLayout<UInt>.size,
            bytes.load(fromByteOffset: bufferSize, as: UInt.self) == UInt(bitPattern: ObjectIdentifier(type))
        {
            place = 0
        } else if type is AnyClass, bytes.count >= MemoryLayout<UInt>.size,
            bytes.load(as: UnsafeRawPointer?.self) == UnsafeRawPointer(Unmanaged.passUnretained(value as AnyObject).toOpaque())
        {
            place = referenceFirst
        } else {
            place = nil
        }
        let id = UInt(bitPattern: ObjectIdentifier(existential))
        let state = stitcher_existential_place(slot(id))
        let known = state & ~flags == id
        // Replaced only if unchanged since it was read: a place is verified by a thread that
        // saw the agreement it builds on still there, never over another's disagreement.
        guard let place else {
            if known { _ = stitcher_replace_existential_place(slot(id), state, 0) }
            return
        }
        let agreedBefore = known && state & agreedOnce != 0 && state & referenceFirst == place
        _ = stitcher_replace_existential_place(slot(id), state, id | place | agreedOnce | (agreedBefore ? verified : 0))
    }
}
