/// The registrations found under one key, in activation and registration order.
///
/// A value, built while the index is: a key with one registration, the common case, costs
/// no allocation (an empty array shares static storage).
struct EntryList: @unchecked Sendable {
    let first: IndexEntry
    private var others: [IndexEntry] = []

    init(_ first: IndexEntry) { self.first = first }

    init?(_ entries: [IndexEntry]) {
        guard let first = entries.first else { return nil }
        self.first = first
        others = Array(entries.dropFirst())
    }

    mutating func append(_ entry: IndexEntry) { others.append(entry) }

    /// The only entry, when there is exactly one.
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
    /// For each type, its `DirectLookup` (read by the direct path without reference counting).
    private let direct: [DirectLookup]
    private let mask: Int
    private let shift: UInt

    init(_ lists: [ObjectIdentifier: EntryList]) {
        var capacity = 8
        while capacity < lists.count * 2 { capacity <<= 1 }
        var keys = [UInt](repeating: 0, count: capacity)
        var values = [EntryList?](repeating: nil, count: capacity)
        var direct = [DirectLookup](repeating: .none, count: capacity)
        let mask = capacity - 1
        let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        for (id, list) in lists {
            let key = UInt(bitPattern: Int(bitPattern: id))  // metadata addresses are never 0
            var index = Self.slot(key, shift: shift, mask: mask)
            while keys[index] != 0 { index = (index + 1) & mask }
            keys[index] = key
            values[index] = list
            direct[index] = DirectLookup(list, requestedType: id)
        }
        self.keys = keys
        self.lists = values
        self.direct = direct
        self.mask = mask
        self.shift = shift
    }

    @inline(__always)
    private static func slot(_ key: UInt, shift: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
    }

    /// The direct lookup of the type with identity `id`; `.none` when there is none.
    @inline(__always)
    func directLookup(_ id: ObjectIdentifier) -> DirectLookup {
        let key = UInt(bitPattern: Int(bitPattern: id))
        var index = Self.slot(key, shift: shift, mask: mask)
        return keys.withUnsafeBufferPointer { keys in
            while true {
                let candidate = keys[index]
                if candidate == key { return direct.withUnsafeBufferPointer { $0[index] } }
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
