/// The registrations found under one key, in activation and registration order.
///
/// Built while the index is, then never changed.
final class EntryList: @unchecked Sendable {
    private let first: IndexEntry
    /// Only appended to while the index is built.
    @exclusivity(unchecked) private var others: [IndexEntry] = []

    init(_ first: IndexEntry) { self.first = first }

    convenience init?(_ entries: [IndexEntry]) {
        guard let first = entries.first else { return nil }
        self.init(first)
        others = Array(entries.dropFirst())
    }

    func append(_ entry: IndexEntry) { others.append(entry) }

    /// The only entry, when there is exactly one: the common case, with no array to read.
    @inline(__always)
    var single: IndexEntry? { others.isEmpty ? first : nil }

    var entries: [IndexEntry] { [first] + others }
}

/// An open-addressing hash table from a type's identity to its registrations.
///
/// Type identities are metadata addresses: multiplying by a large odd constant spreads them
/// well enough, which costs a fraction of the SipHash a `Dictionary` would compute.
struct TypeTable: @unchecked Sendable {
    private let keys: [UInt]
    private let lists: [EntryList?]
    /// For each type whose cached instance can be returned as is, where it is kept (see
    /// `CachedInstanceSource`), read by the lock-free path without reference counting.
    private let sources: [CachedInstanceSource]
    private let mask: Int
    private let shift: UInt

    init(_ lists: [ObjectIdentifier: EntryList]) {
        var capacity = 8
        while capacity < lists.count * 2 { capacity <<= 1 }
        var keys = [UInt](repeating: 0, count: capacity)
        var values = [EntryList?](repeating: nil, count: capacity)
        var sources = [CachedInstanceSource](repeating: .none, count: capacity)
        let mask = capacity - 1
        let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        for (id, list) in lists {
            let key = UInt(bitPattern: Int(bitPattern: id))  // metadata addresses are never 0
            var index = Self.slot(key, shift: shift, mask: mask)
            while keys[index] != 0 { index = (index + 1) & mask }
            keys[index] = key
            values[index] = list
            sources[index] = CachedInstanceSource(list, requestedType: id)
        }
        self.keys = keys
        self.lists = values
        self.sources = sources
        self.mask = mask
        self.shift = shift
    }

    @inline(__always)
    private static func slot(_ key: UInt, shift: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
    }

    /// Where the cached instance of the type with identity `id` is kept, when it can be
    /// returned as is; `.none` otherwise.
    @inline(__always)
    func cachedInstanceSource(_ id: ObjectIdentifier) -> CachedInstanceSource {
        let key = UInt(bitPattern: Int(bitPattern: id))
        var index = Self.slot(key, shift: shift, mask: mask)
        return keys.withUnsafeBufferPointer { keys in
            while true {
                let candidate = keys[index]
                if candidate == key { return sources.withUnsafeBufferPointer { $0[index] } }
                if candidate == 0 { return .none }
                index = (index + 1) & mask
            }
        }
    }

    /// The registrations of the type with identity `id`, or nil.
    @inline(__always)
    func lookup(_ id: ObjectIdentifier) -> EntryList? {
        let key = UInt(bitPattern: Int(bitPattern: id))
        var index = Self.slot(key, shift: shift, mask: mask)
        return keys.withUnsafeBufferPointer { keys in
            while true {
                let candidate = keys[index]
                if candidate == key { return lists[index] }
                if candidate == 0 { return nil }
                index = (index + 1) & mask
            }
        }
    }
}
