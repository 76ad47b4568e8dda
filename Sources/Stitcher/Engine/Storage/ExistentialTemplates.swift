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
/// existential (by its metadata's kind), and the cast stored the instance itself in the
/// first word (not a box, as `any Error` does). Anything else is cast every time, as
/// before. Templates live in a small table shared by every graph, a slot per pair chosen
/// by their identities; a slot is written once and never freed (types are not unloaded),
/// and a pair whose slot is taken is cast every time. (The table is C's, so that reading it
/// needs no lazy initialization.)
@usableFromInline
enum ExistentialTemplates {
    /// The largest existential kept (a class-bound existential of 7 protocols, an opaque
    /// one of 3).
    private static let maximumSize = 64
    /// The metadata kind of an existential type (`MetadataKind::Existential`).
    private static let existentialKind: UInt = 0x303

    // A template's memory: the existential's identity, the class's identity, its size, then
    // the existential's bytes with a zero first word.
    private static let headerSize = 3 * MemoryLayout<UInt>.stride

    @inline(__always)
    private static func slot(_ existential: ObjectIdentifier, _ type: ObjectIdentifier) -> UInt {
        // The addresses themselves (metadata is at least 16-byte aligned): `hashValue` would
        // run the hasher on every lookup. The table masks the slot.
        (UInt(bitPattern: existential) >> 4) &* 31 &+ (UInt(bitPattern: type) >> 4)
    }

    /// The template for instances of `object`'s class presented as `existential`, if kept.
    @inline(__always)
    private static func template(_ existential: ObjectIdentifier, for object: AnyObject) -> UnsafeMutableRawPointer? {
        let type = ObjectIdentifier(Swift.type(of: object))
        guard let template = stitcher_existential_template(slot(existential, type)),
              template.load(as: ObjectIdentifier.self) == existential,
              template.load(fromByteOffset: MemoryLayout<UInt>.stride, as: ObjectIdentifier.self) == type
        else { return nil }
        return template
    }

    /// Whether instances of `object`'s class are presented as the existential `id` by
    /// ``present(_:as:into:size:)``.
    @inline(__always)
    static func presents(_ object: AnyObject, as id: ObjectIdentifier) -> Bool {
        template(id, for: object) != nil
    }

    /// Writes the template of `object` presented as the existential `id` (`size` bytes) into
    /// `destination`, whose first word the caller then initializes with `object`; the engine
    /// has checked ``presents(_:as:)``.
    @usableFromInline
    static func present(_ object: AnyObject, as id: ObjectIdentifier, into destination: UnsafeMutableRawPointer, size: Int) {
        guard let template = template(id, for: object),
              template.load(fromByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self) == size
        else { preconditionFailure("an instance is presented through a template only when one is kept") }
        destination.copyMemory(from: template + headerSize, byteCount: size)
    }

    /// Keeps the template of `presented`, the cast of `object` to the existential `A`, when
    /// it is exact (see the type's notes). Inlined into the view made for `A`.
    @inlinable
    static func learn<A>(_ presented: A, from object: Any) {
        guard MemoryLayout<A>.size <= 64, type(of: object) is AnyClass else { return }
        withUnsafeBytes(of: presented) { bytes in
            learn(bytes, as: ObjectIdentifier(A.self), kind: unsafeBitCast(A.self as Any.Type, to: UnsafeRawPointer.self),
                  from: object as AnyObject)
        }
    }

    @usableFromInline
    static func learn(_ bytes: UnsafeRawBufferPointer, as id: ObjectIdentifier, kind metadata: UnsafeRawPointer, from object: AnyObject) {
        guard metadata.load(as: UInt.self) == existentialKind, bytes.count >= MemoryLayout<UInt>.size,
              bytes.count <= maximumSize,
              bytes.load(as: UnsafeRawPointer.self) == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        else { return }
        let type = ObjectIdentifier(Swift.type(of: object))
        let slot = slot(id, type)
        guard stitcher_existential_template(slot) == nil else { return }
        let template = UnsafeMutableRawPointer.allocate(byteCount: headerSize + bytes.count, alignment: 16)
        template.storeBytes(of: id, as: ObjectIdentifier.self)
        template.storeBytes(of: type, toByteOffset: MemoryLayout<UInt>.stride, as: ObjectIdentifier.self)
        template.storeBytes(of: bytes.count, toByteOffset: 2 * MemoryLayout<UInt>.stride, as: Int.self)
        (template + headerSize).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        (template + headerSize).storeBytes(of: 0, as: UInt.self)
        if !stitcher_publish_existential_template(slot, template) {
            template.deallocate()
        }
    }
}
