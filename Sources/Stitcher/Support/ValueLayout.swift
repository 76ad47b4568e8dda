/// Whether the runtime keeps values of a type inside an existential's inline buffer, read
/// from the type's value witness table and trusted only when checked.
///
/// A value presented as an opaque existential (`any P` holding a struct) lies in the
/// existential's three-word buffer when its type's value witnesses say it is stored inline,
/// and in a box the buffer points to otherwise. The engine writes such a value straight into
/// the buffer (`ExistentialTemplates.presentValue`) only when this says inline; a wrong
/// answer would corrupt memory, so every read is checked:
/// - the reading itself, once: the witnesses of types whose storage the language fixes
///   (`Int` and `String` inline, four `Int`s in a box) must read as expected;
/// - the type's own witnesses: their size, stride and alignment must equal those the
///   registering module was compiled with (`MemoryLayout`, constants there).
///
/// Anything else answers false, and the value is boxed and cast as before.
@usableFromInline
package enum ValueLayout {
    /// Whether a value of the type `type` may be a value type's value: true but for a
    /// class-bound existential (`any P` where `P: AnyObject`), which holds an object only.
    /// Read inline from the type's metadata by the injecting code, to send a request for a
    /// class-bound protocol its own way (`DependencyGraph.injectClassBound(byType:)`, which
    /// answers objects only), without the value path's tests
    /// (`DependencyGraph.injectValue(byType:)`).
    ///
    /// Only a choice of path, never of memory: either answer is correct for any type (a
    /// wrong one costs time), so the metadata is read without the checks a layout that
    /// memory depends on would need. An existential's metadata is its kind word, then 32
    /// bits of flags whose top bit is set when it is *not* class-bound.
    @inlinable @inline(__always)
    package static func mayHoldValues(_ type: Any.Type) -> Bool {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x303 else { return true }
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt32.self) & 0x8000_0000 != 0
    }

    // Swift's stable value witness table: eight function pointers, then size, stride, flags
    // (32 bits: the alignment mask in the low byte, `IsNonInline` = 0x20000), extra inhabitants.
    private static let sizeOffset = 8 * MemoryLayout<UInt>.stride
    private static let strideOffset = sizeOffset + MemoryLayout<UInt>.stride
    private static let flagsOffset = strideOffset + MemoryLayout<UInt>.stride
    private static let alignmentMask: UInt32 = 0xFF
    private static let isNonInline: UInt32 = 0x20000

    /// Whether the witness tables read as expected in this runtime, checked once.
    private static let isReliable: Bool = {
        func reads<T>(_ type: T.Type, inline: Bool) -> Bool {
            storage(of: type, size: MemoryLayout<T>.size, stride: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
                == inline
        }
        return MetadataKind.isReliable && reads(Int.self, inline: true) && reads(String.self, inline: true)
            && reads((Int, Int, Int, Int).self, inline: false) && reads((Int8, Int).self, inline: true)
    }()

    /// Whether values of `type`, whose layout the caller's module was compiled with, are
    /// stored inline in an existential's buffer; false when that cannot be trusted.
    package static func isStoredInline(_ type: Any.Type, size: Int, stride: Int, alignment: Int) -> Bool {
        isReliable && storage(of: type, size: size, stride: stride, alignment: alignment) == true
    }

    /// What `type`'s value witnesses say (inline or not); nil when they disagree with the
    /// layout given or the type is not a value type.
    private static func storage(of type: Any.Type, size: Int, stride: Int, alignment: Int) -> Bool? {
        guard MetadataKind.valuesAreExactly(type) else { return nil }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let witnesses = metadata.load(fromByteOffset: -MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
        let flags = witnesses.load(fromByteOffset: flagsOffset, as: UInt32.self)
        guard witnesses.load(fromByteOffset: sizeOffset, as: Int.self) == size,
            witnesses.load(fromByteOffset: strideOffset, as: Int.self) == stride,
            Int(flags & alignmentMask) + 1 == alignment
        else { return nil }
        return flags & isNonInline == 0
    }
}
