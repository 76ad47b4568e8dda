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
        /// A registration taking parameters, in any scope: the injection's arguments must
        /// match its signature.
        case parameterized
    }

    private let entryAddress: UInt
    let kind: Kind

    static let none = DirectLookup(entryAddress: 0, kind: .none)

    private init(entryAddress: UInt, kind: Kind) {
        self.entryAddress = entryAddress
        self.kind = kind
    }

    /// The direct lookup of `list` for a request of the type with identity `requestedType`.
    init(_ list: EntryList, requestedType: ObjectIdentifier) {
        guard let entry = list.single else { self = .none; return }
        let record = entry.record
        guard record.storesObjects, record.producedType.id == requestedType else {
            self = .none
            return
        }
        entryAddress = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        kind = if !record.parameterTypes.isEmpty { .parameterized } else { switch record.scope {
        case .singleton, .managed: .published
        case .shared: .shared
        case .instance: .transient
        } }
    }

    /// The entry, unretained; nil for `.none`.
    @inline(__always)
    var entry: Unmanaged<IndexEntry>? {
        UnsafeRawPointer(bitPattern: entryAddress).map { Unmanaged.fromOpaque($0) }
    }
}
