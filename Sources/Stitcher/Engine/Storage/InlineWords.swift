#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether an entry's atomic words can live inline, at the address of its first stored
/// property, and how to place them otherwise.
///
/// Readers hand the words' addresses to C (`HazardCell`), so the address must be the
/// property's own storage, not a temporary copy. Swift lays out a final class's stored
/// properties in declaration order after the object header, but that is the runtime's
/// choice, not an API: it is checked once per process, in every build, on a probe entry
/// (the property's address against `_getUnsafePointerToStoredProperties`, and that against
/// the object's address plus the header). When the check fails, every entry allocates its
/// words apart: one allocation more per registration, and the same code everywhere else.
package enum InlineWords {
    typealias Storage = IndexEntry.Word.Storage

    /// Set by tests (`STITCHER_FORCE_APART_WORDS=1`) to run the fallback.
    private static let forcedApart = getenv("STITCHER_FORCE_APART_WORDS").map { String(cString: $0) == "1" } ?? false

    /// Whether entries keep their words inline. Decided once, on a probe.
    package static let areReliable: Bool = {
        if forcedApart { return false }
        let probe = IndexEntry(probing: RegistrationRecord(Dependency { InlineWords.Probe() }))
        let object = UnsafeMutableRawPointer(Unmanaged.passUnretained(probe).toOpaque())
        let stored = _getUnsafePointerToStoredProperties(probe)
        let property = probe.inlineWordsAddress()
        // The header is two words on every platform Swift supports today.
        return property == stored && stored == object + 2 * MemoryLayout<Int>.size
            && MemoryLayout<(Storage, Storage, Storage)>.stride == 3 * MemoryLayout<Int>.size
    }()

    /// What the probe entry's registration produces.
    final class Probe: Sendable {}

    /// A stand-in for the address while an entry's properties are initialized (and the
    /// probe's, for good): never dereferenced. A literal, not a stored global, so that
    /// making an entry costs no lazy-initialization check for it.
    @inline(__always)
    static var placeholder: UnsafeMutablePointer<Storage> {
        UnsafeMutablePointer<Storage>(bitPattern: MemoryLayout<Storage>.alignment).unsafelyUnwrapped
    }

    @inline(__always)
    static func address(in entry: IndexEntry) -> UnsafeMutablePointer<Storage> {
        _getUnsafePointerToStoredProperties(entry).assumingMemoryBound(to: Storage.self)
    }

    static func allocateApart() -> UnsafeMutablePointer<Storage> {
        let words = UnsafeMutablePointer<Storage>.allocate(capacity: 3)
        words.initialize(repeating: Storage(nil), count: 3)
        return words
    }

    static func deallocateApart(_ words: UnsafeMutablePointer<Storage>) {
        words.deinitialize(count: 3)
        words.deallocate()
    }
}
