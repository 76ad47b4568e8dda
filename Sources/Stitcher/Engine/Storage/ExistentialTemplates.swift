import Atomics
internal import _StitcherShims

/// How a class's instances look as a protocol, learnt from one dynamic cast, so that later
/// instances are presented as the protocol without one.
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
/// as before. Templates live in a table shared by every graph (256 slots), each pair in one of
/// 8 slots from one chosen by their identities; a slot is written once and never freed
/// (types are not unloaded), and a pair that finds its 8 slots taken is cast every time. (The table is C's, so that reading it
/// needs no lazy initialization.)
@usableFromInline
enum ExistentialTemplates {
    /// The largest existential kept (a class-bound existential of 7 protocols, an opaque
    /// one of 3).
    @usableFromInline static let maximumSize = 64
    // A template's memory: the existential's identity, the class's identity, its size, its
    // state (an atomic word, `State`), then the existential's bytes with a zero first word.
    private static let headerSize = 4 * MemoryLayout<UInt>.stride

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

    /// The template for instances of `object`'s class presented as `existential`, if kept:
    /// in the pair's slot or one of the next few (slots are filled once and never emptied,
    /// so an empty one ends the search).
    @inline(__always)
    private static func template(_ existential: ObjectIdentifier, for object: AnyObject) -> UnsafeMutableRawPointer? {
        let type = ObjectIdentifier(Swift.type(of: object))
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
        template(id, for: object).map(isVerified) ?? false
    }

    /// Writes the template of `object` presented as the existential `id` (`size` bytes) into
    /// `destination`, whose first word the caller then initializes with `object`; the engine
    /// has checked ``presents(_:as:)``.
    @usableFromInline
    static func present(_ object: AnyObject, as id: ObjectIdentifier, into destination: UnsafeMutableRawPointer, size: Int) {
        guard let template = template(id, for: object), isVerified(template),
            template.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self) == size
        else { preconditionFailure("an instance is presented through a template only when one is verified") }
        destination.copyMemory(from: template + headerSize, byteCount: size)
    }

    /// Keeps the template of `presented`, the cast of `object` to the existential `A`, when
    /// it is exact (see the type's notes). Inlined into the view made for `A`.
    @inlinable
    static func learn<A>(_ presented: A, from object: Any) {
        guard MemoryLayout<A>.size <= maximumSize, type(of: object) is AnyClass else { return }
        withUnsafeBytes(of: presented) { bytes in
            learn(
                bytes, as: ObjectIdentifier(A.self), kind: unsafeBitCast(A.self as Any.Type, to: UnsafeRawPointer.self),
                from: object as AnyObject)
        }
    }

    @usableFromInline
    static func learn(_ bytes: UnsafeRawBufferPointer, as id: ObjectIdentifier, kind metadata: UnsafeRawPointer, from object: AnyObject) {
        guard MetadataKind.isExistential(unsafeBitCast(metadata, to: Any.Type.self)), bytes.count >= MemoryLayout<UInt>.size,
            bytes.load(as: UnsafeRawPointer.self) == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        else { return }
        if let kept = template(id, for: object) {
            verify(kept, against: bytes)
            return
        }
        let type = ObjectIdentifier(Swift.type(of: object))
        let template = UnsafeMutableRawPointer.allocate(byteCount: headerSize + bytes.count, alignment: 16)
        template.storeBytes(of: id, as: ObjectIdentifier.self)
        template.storeBytes(of: type, toByteOffset: MemoryLayout<UInt>.stride, as: ObjectIdentifier.self)
        template.storeBytes(of: bytes.count, toByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
        template.storeBytes(of: State.learnt.rawValue, toByteOffset: 3 * MemoryLayout<UInt>.stride, as: Int.self)
        (template + headerSize).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        (template + headerSize).storeBytes(of: 0, as: UInt.self)
        // The first empty slot among the pair's few; none left (or another thread kept the
        // same pair meanwhile, a harmless duplicate): its instances are cast every time.
        let first = slot(id, type)
        for probe in 0..<probes where stitcher_publish_existential_template(first &+ probe, template) { return }
        template.deallocate()
    }

    /// Verifies a learnt template against the cast of another instance of its class (its
    /// bytes but the first word): verified when they agree, refuted for good otherwise.
    private static func verify(_ template: UnsafeMutableRawPointer, against bytes: UnsafeRawBufferPointer) {
        let state = state(of: template)
        guard state.load(ordering: .acquiring) == State.learnt.rawValue else { return }
        let size = template.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
        let word = MemoryLayout<UInt>.size
        let agrees =
            size == bytes.count
            && UnsafeRawBufferPointer(start: template + headerSize + word, count: size - word)
                .elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[word...]))
        _ = state.compareExchange(
            expected: State.learnt.rawValue, desired: (agrees ? State.verified : .refuted).rawValue, ordering: .releasing)
    }
}
