import Atomics
internal import _StitcherShims

/// How a class's or a value type's instances look as a protocol, learnt from one dynamic
/// cast, so that later instances are presented as the protocol without one.
///
/// A class instance requested as a protocol it was registered to conform to (a transient
/// `.conforms(to: P.self)` injected as `any P`) must be converted into the existential:
/// the runtime's dynamic cast looks the conformance up for every instance, which costs
/// several times the instance, and the engine then boxes the result. But an existential
/// holding a class instance is the reference in its first word followed by words that
/// depend on the instance's class alone (its type metadata and witness tables, in Swift's
/// stable existential layout). So the first cast's result, its reference word cleared, is
/// kept as a template per (existential, class); an instance of that class is then presented
/// by copying the template and storing the retained reference in front.
///
/// A template is kept only when it is known to be exact: the requested type is an
/// existential (by its metadata's kind, checked at run time, see `MetadataKind`), and the
/// cast stored the instance itself in the first word (not a box, as `any Error` does). It
/// is used only once verified: the cast of a second instance of the class must give the
/// template's bytes again (the layout is the runtime's, so it is checked, not assumed); a
/// template the second cast contradicts is never used. Anything else is cast every time,
/// as before.
///
/// A value type's instances are kept the same way when they lie in an opaque existential's
/// three-word buffer: the cast of the first value has the value's type metadata after the
/// buffer (checked), then its witness tables, which depend on the type alone; the template
/// keeps those words, and `presentValue` copies them in front of a value written into the
/// buffer. Whether the runtime keeps a value in the buffer (and not in a box the buffer
/// points to) is read from its value witnesses and checked (`ValueLayout`) before a value
/// template is used.
///
/// Templates live in a table shared by every graph (256 slots), each pair in one of 8 slots
/// from one chosen by their identities; a slot is written once and never freed (types are
/// not unloaded), and a pair that finds its 8 slots taken is cast every time. (The table is
/// C's, so that reading it needs no lazy initialization.)
@usableFromInline
enum ExistentialTemplates {
    /// The largest existential kept (a class-bound existential of 7 protocols, an opaque
    /// one of 3).
    @usableFromInline static let maximumSize = 64
    // A template's memory: the existential's identity, the type's identity, its size, its
    // state (an atomic word, `State`), how many leading bytes hold the instance (`held`: a
    // class's reference, or a value's inline buffer), then the existential's bytes with
    // those zeroed.
    @inlinable static var headerSize: Int { 5 * MemoryLayout<UInt>.stride }
    /// The bytes of an opaque existential's inline buffer, where a value stored inline lies.
    static let valueBufferSize = 3 * MemoryLayout<UInt>.stride

    /// Whether a template may be used: learnt from one cast, verified by a second, or
    /// contradicted by it.
    private enum State: Int {
        case learnt = 0
        case verified
        case refuted
    }

    @inline(__always)
    private static func state(of template: UnsafeMutableRawPointer) -> UnsafeAtomic<Int> {
        UnsafeAtomic(at: (template + 3 * MemoryLayout<UInt>.stride).assumingMemoryBound(to: Int.AtomicRepresentation.self))
    }

    @inline(__always)
    private static func isVerified(_ template: UnsafeMutableRawPointer) -> Bool {
        state(of: template).load(ordering: .acquiring) == State.verified.rawValue
    }

    /// How many slots a lookup or an insertion probes, from the pair's own.
    private static let probes: UInt = 8

    @inline(__always)
    private static func slot(_ existential: ObjectIdentifier, _ type: ObjectIdentifier) -> UInt {
        // The addresses themselves, mixed (metadata addresses share their high and low bits):
        // `hashValue` would run the hasher on every lookup. The table masks the slot.
        let mixed = (UInt(bitPattern: existential) ^ (UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15)) &* 0x9E37_79B9_7F4A_7C15
        return mixed >> 48
    }

    /// The template for instances of `object`'s class presented as `existential`, if kept.
    @inline(__always)
    private static func template(_ existential: ObjectIdentifier, for object: AnyObject) -> UnsafeMutableRawPointer? {
        template(existential, type: ObjectIdentifier(Swift.type(of: object)))
    }

    /// The template for instances of `type` presented as `existential`, if kept: in the
    /// pair's slot or one of the next few (slots are filled once and never emptied, so an
    /// empty one ends the search).
    @inline(__always)
    private static func template(_ existential: ObjectIdentifier, type: ObjectIdentifier) -> UnsafeMutableRawPointer? {
        let first = slot(existential, type)
        for probe in 0..<probes {
            guard let template = stitcher_existential_template(first &+ probe) else { return nil }
            if template.load(as: ObjectIdentifier.self) == existential,
                template.load(fromByteOffset: MemoryLayout<UInt>.stride, as: ObjectIdentifier.self) == type
            {
                return template
            }
        }
        return nil
    }

    /// Whether instances of `object`'s class are presented as the existential `id` by
    /// ``present(_:as:into:size:)``.
    @inline(__always)
    static func presents(_ object: AnyObject, as id: ObjectIdentifier) -> Bool {
        verifiedTemplate(presenting: object, as: id) != nil
    }

    /// Writes `object`, retained, presented as the existential `id` (`size` bytes), into
    /// `destination` (see ``present(_:from:into:size:)``); the engine has checked
    /// ``presents(_:as:)``.
    @usableFromInline
    static func present(_ object: AnyObject, as id: ObjectIdentifier, into destination: UnsafeMutableRawPointer, size: Int) {
        guard let template = verifiedTemplate(presenting: object, as: id) else {
            preconditionFailure("an instance is presented through a template only when one is verified")
        }
        present(Unmanaged.passRetained(object).toOpaque(), from: template, into: destination, size: size)
    }

    /// The verified template presenting `object`'s class as the existential `id`, whose
    /// first word holds the reference (not a box): for ``present(_:from:into:size:)``; nil
    /// when none is kept, verified, of that form.
    @inline(__always)
    static func verifiedTemplate(presenting object: AnyObject, as id: ObjectIdentifier) -> UnsafeRawPointer? {
        guard let template = template(id, for: object), isVerified(template),
            template.load(fromByteOffset: 4 * MemoryLayout<UInt>.stride, as: Int.self) == MemoryLayout<UInt>.size
        else { return nil }
        return UnsafeRawPointer(template)
    }

    /// Writes the existential `template` (from ``verifiedTemplate(presenting:as:)`` for the
    /// existential whose size is `size`) holding `reference`, a retained object's address,
    /// into `destination` (memory for one), taking over the reference. The template's size
    /// is checked against `size`: it was learnt from a cast to that same type.
    @inlinable @inline(__always)
    static func present(
        _ reference: UnsafeMutableRawPointer, from template: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, size: Int
    ) {
        precondition(bytes(of: template) == size, "a template is used only for the existential it was learnt from")
        destination.storeBytes(of: reference, as: UnsafeMutableRawPointer.self)
        // Word by word: after the reference, metadata and witness-table pointers (a
        // class-bound existential is whole words).
        var offset = MemoryLayout<UInt>.size
        while offset < size {
            destination.storeBytes(
                of: template.load(fromByteOffset: headerSize + offset, as: UInt.self), toByteOffset: offset, as: UInt.self)
            offset += MemoryLayout<UInt>.size
        }
    }

    /// The size of the existential `template` was learnt from.
    @usableFromInline @inline(__always)
    static func bytes(of template: UnsafeRawPointer) -> Int {
        template.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
    }

    /// Writes the template of values of the type `type` presented as the existential `id`
    /// into `destination` (memory for one), but for its inline buffer, where the caller then
    /// writes the value; false, writing nothing, when no verified template is kept. The
    /// caller has checked that the runtime stores such values inline (`ValueLayout`).
    ///
    /// Inlined into its one caller, the transient value's direct path.
    @inline(__always)
    static func presentValue(of type: ObjectIdentifier, as id: ObjectIdentifier, into destination: UnsafeMutableRawPointer) -> Bool {
        guard let template = template(id, type: type), isVerified(template),
            template.load(fromByteOffset: 4 * MemoryLayout<UInt>.stride, as: Int.self) == valueBufferSize
        else { return false }
        let size = template.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
        let (source, target) = (template + headerSize + valueBufferSize, destination + valueBufferSize)
        if size == valueBufferSize + 2 * MemoryLayout<UInt>.stride {
            // A protocol's existential: the value's type and one witness table, two words
            // stored here rather than by a call to `memcpy`.
            let word = MemoryLayout<UInt>.stride
            target.storeBytes(of: source.load(as: UInt.self), as: UInt.self)
            target.storeBytes(of: source.load(fromByteOffset: word, as: UInt.self), toByteOffset: word, as: UInt.self)
        } else {
            target.copyMemory(from: source, byteCount: size - valueBufferSize)
        }
        return true
    }

    /// Keeps the template of `presented`, the cast of `object` to the existential `A`, when
    /// it is exact (see the type's notes). Inlined into the view made for `A`.
    @inlinable
    static func learn<A>(_ presented: A, from object: Any) {
        guard MemoryLayout<A>.size <= maximumSize else { return }
        withUnsafeBytes(of: presented) { bytes in
            learn(bytes, as: ObjectIdentifier(A.self), kind: unsafeBitCast(A.self as Any.Type, to: UnsafeRawPointer.self), from: object)
        }
    }

    /// Keeps the template of the existential `bytes` (of the type whose metadata is
    /// `metadata`, with identity `id`) holding `object`, when its layout is the one
    /// expected: a class instance's reference in its first word, or, for a value, the
    /// value's type metadata after a three-word buffer (an opaque existential). Whether the
    /// value lies in that buffer is the runtime's choice, which `ValueLayout` checks before
    /// a value template is used.
    @usableFromInline
    static func learn(_ bytes: UnsafeRawBufferPointer, as id: ObjectIdentifier, kind metadata: UnsafeRawPointer, from object: Any) {
        guard MetadataKind.isExistential(unsafeBitCast(metadata, to: Any.Type.self)) else { return }
        let type = Swift.type(of: object)
        let held: Int
        if type is AnyClass {
            let reference = UnsafeRawPointer(Unmanaged.passUnretained(object as AnyObject).toOpaque())
            guard bytes.count >= MemoryLayout<UInt>.size, bytes.load(as: UnsafeRawPointer.self) == reference else { return }
            held = MemoryLayout<UInt>.size
        } else {
            guard bytes.count > valueBufferSize,
                bytes.load(fromByteOffset: valueBufferSize, as: UnsafeRawPointer.self) == unsafeBitCast(type, to: UnsafeRawPointer.self)
            else { return }
            held = valueBufferSize
        }
        let typeID = ObjectIdentifier(type)
        if let kept = template(id, type: typeID) {
            verify(kept, against: bytes)
            return
        }
        let template = UnsafeMutableRawPointer.allocate(byteCount: headerSize + bytes.count, alignment: 16)
        template.storeBytes(of: id, as: ObjectIdentifier.self)
        template.storeBytes(of: typeID, toByteOffset: MemoryLayout<UInt>.stride, as: ObjectIdentifier.self)
        template.storeBytes(of: bytes.count, toByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
        template.storeBytes(of: State.learnt.rawValue, toByteOffset: 3 * MemoryLayout<UInt>.stride, as: Int.self)
        template.storeBytes(of: held, toByteOffset: 4 * MemoryLayout<UInt>.stride, as: Int.self)
        (template + headerSize).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        (template + headerSize).initializeMemory(as: UInt8.self, repeating: 0, count: held)
        // The first empty slot among the pair's few; none left (or another thread kept the
        // same pair meanwhile, a harmless duplicate): its instances are cast every time.
        let first = slot(id, typeID)
        for probe in 0..<probes where stitcher_publish_existential_template(first &+ probe, template) { return }
        template.deallocate()
    }

    /// Verifies a learnt template against the cast of another instance of its type (its
    /// bytes but those holding the instance): verified when they agree, refuted for good
    /// otherwise.
    private static func verify(_ template: UnsafeMutableRawPointer, against bytes: UnsafeRawBufferPointer) {
        let state = state(of: template)
        guard state.load(ordering: .acquiring) == State.learnt.rawValue else { return }
        let size = template.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
        let held = template.load(fromByteOffset: 4 * MemoryLayout<UInt>.stride, as: Int.self)
        let agrees =
            size == bytes.count
            && UnsafeRawBufferPointer(start: template + headerSize + held, count: size - held)
                .elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[held...]))
        _ = state.compareExchange(
            expected: State.learnt.rawValue, desired: (agrees ? State.verified : .refuted).rawValue, ordering: .releasing)
    }
}
