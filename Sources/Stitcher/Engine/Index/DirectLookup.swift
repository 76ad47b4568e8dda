/// A lookup the direct path can answer, precomputed when the index is built.
///
/// A lookup qualifies when exactly one registration answers it and produces objects of
/// exactly the requested type: its instance is then the answer as is, with no cast. For a
/// registration without parameters, the kind also tells where its instance is kept, so
/// that a cached one is returned without reading the record. The entry is held
/// unretained: it lives as long as the snapshot that holds this lookup, which the calling
/// thread keeps alive (see `ThreadState.snapshot`).
struct DirectLookup: @unchecked Sendable {
    enum Kind: UInt8 {
        /// Not a direct lookup: take the general path.
        case none
        /// A singleton or managed instance, published once built.
        case published
        /// A weakly held instance.
        case shared
        /// A new instance on every lookup.
        case transient
        /// An instance kept by the innermost open dependency scope.
        case scoped
        /// A registration taking parameters, in any scope: the injection's arguments must
        /// match its signature.
        case parameterized
    }

    /// The entry's address with the kind in its low bits (entries are 16-byte aligned):
    /// one word, so that tables of lookups stay small.
    let bits: UInt

    static let none = DirectLookup(bits: 0)

    init(bits: UInt) {
        assert(Kind(rawValue: UInt8(truncatingIfNeeded: bits & Self.kindMask)) != nil, "a valid kind")
        self.bits = bits
    }

    /// The direct lookup of `list` for a request of the type with identity `requestedType`.
    init(_ list: EntryList, requestedType: ObjectIdentifier) {
        guard let entry = list.single, case let kind = Self.kind(of: entry, as: requestedType), kind != .none else {
            self = .none
            return
        }
        bits = Self.address(of: entry) | UInt(kind.rawValue)
    }

    /// How the direct path answers a request of the type with identity `requestedType`
    /// when `entry` is the only registration found.
    static func kind(of entry: IndexEntry, as requestedType: ObjectIdentifier) -> Kind {
        let record = entry.record
        guard record.storesObjects, record.producedType.id == requestedType else { return .none }
        if record.takesParameters { return .parameterized }
        return switch record.lifetime {
        case .published: .published
        case .shared: .shared
        case .transient: .transient
        case .scoped: .scoped
        }
    }

    /// The address of an entry, whose low four bits are zero.
    static func address(of entry: IndexEntry) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
    }

    static let kindMask: UInt = 0b111

    /// Read without a range check: `bits` is only ever made from a `Kind`'s raw value.
    @inline(__always)
    var kind: Kind { unsafeBitCast(UInt8(truncatingIfNeeded: bits & Self.kindMask), to: Kind.self) }

    /// The entry, unretained; nil for `.none`.
    @inline(__always)
    var entry: Unmanaged<IndexEntry>? {
        UnsafeRawPointer(bitPattern: bits & ~0b1111).map { Unmanaged.fromOpaque($0) }
    }
}
