/// A lookup the direct path can answer, precomputed when the index is built.
///
/// A lookup qualifies when exactly one registration answers it, takes no parameters and
/// produces objects of exactly the requested type: its instance is then the answer as is,
/// with no cast, no parameter matching and no check of the record. The entry is held
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
        guard record.storesObjects, record.parameterTypes.isEmpty, record.producedType.id == requestedType else {
            self = .none
            return
        }
        entryAddress = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        kind = switch record.scope {
        case .singleton, .managed: .published
        case .shared: .shared
        case .instance: .transient
        }
    }

    /// The entry, unretained; nil for `.none`.
    @inline(__always)
    var entry: Unmanaged<IndexEntry>? {
        UnsafeRawPointer(bitPattern: entryAddress).map { Unmanaged.fromOpaque($0) }
    }
}
