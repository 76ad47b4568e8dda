/// The registrations of types registered several times with different parameters, found
/// by the type and the parameters' signature in one probe.
///
/// A type's `DirectLookup` answers an injection without parameters; when the type also has
/// registrations taking parameters (`Dependency { Widget() }` beside
/// `Dependency { (size: Int) in Widget(size) }`), its lookup carries
/// `DirectLookup.overloadsFlag`, and an injection with parameters finds here the one that
/// takes them:
///
/// ```swift
/// table.entry(ofType: ObjectIdentifier(Widget.self), signature: arguments.signature)
/// ```
///
/// Open addressing over trivial words, so that a read touches no reference count. Entries
/// are held unretained: the snapshot that holds the table keeps them alive.
struct OverloadTable: @unchecked Sendable {
    /// For each bucket, the type's identity (0 when empty) and the signature.
    private let keys: [(type: UInt, signature: UInt)]
    private let entries: [Unmanaged<IndexEntry>?]
    private let mask: Int

    static let empty = OverloadTable(keys: [], entries: [], mask: 0)

    private init(keys: [(type: UInt, signature: UInt)], entries: [Unmanaged<IndexEntry>?], mask: Int) {
        self.keys = keys
        self.entries = entries
        self.mask = mask
    }

    /// A registration of a type that takes parameters of a signature.
    typealias Overload = (type: ObjectIdentifier, signature: ObjectIdentifier, entry: IndexEntry)

    /// A table of `overloads`, each registration of a type under the signature of the
    /// parameters it takes; the pairs are distinct.
    init(_ overloads: [Overload]) {
        self.init(overloads.map { ((Self.word($0.type), Self.word($0.signature)), .passUnretained($0.entry)) })
    }

    private init(_ overloads: [(key: (type: UInt, signature: UInt), entry: Unmanaged<IndexEntry>)]) {
        guard !overloads.isEmpty else {
            self = .empty
            return
        }
        let count = OpenAddressing.bucketCount(for: overloads.count)
        var keys = [(type: UInt, signature: UInt)](repeating: (0, 0), count: count)
        var entries = [Unmanaged<IndexEntry>?](repeating: nil, count: count)
        for overload in overloads {
            var index = Self.bucket(overload.key.type, overload.key.signature, mask: count - 1)
            while keys[index].type != 0 { index = OpenAddressing.next(after: index, mask: count - 1) }
            keys[index] = overload.key
            entries[index] = overload.entry
        }
        self.init(keys: keys, entries: entries, mask: count - 1)
    }

    /// This table without the registrations of the types in `types`, with `added` (theirs
    /// now). The caller holds the index the entries belong to.
    func replacing(types: some Collection<ObjectIdentifier>, with added: [Overload]) -> OverloadTable {
        if mask == 0 && added.isEmpty { return self }
        let replaced = Set(types.map(Self.word))
        var kept: [(key: (type: UInt, signature: UInt), entry: Unmanaged<IndexEntry>)] = []
        for index in keys.indices where keys[index].type != 0 && !replaced.contains(keys[index].type) {
            kept.append((keys[index], entries[index]!))
        }
        kept += added.map { ((Self.word($0.type), Self.word($0.signature)), .passUnretained($0.entry)) }
        return OverloadTable(kept)
    }

    /// The registration of the type `type` taking parameters of `signature`, or nil.
    @inline(__always)
    func entry(ofType type: ObjectIdentifier, signature: ObjectIdentifier) -> Unmanaged<IndexEntry>? {
        guard mask != 0 else { return nil }
        let type = Self.word(type)
        let signature = Self.word(signature)
        var index = Self.bucket(type, signature, mask: mask)
        return keys.withUnsafeBufferPointer { keys in
            while true {
                let key = keys[index]
                if key.type == type && key.signature == signature { return entries.withUnsafeBufferPointer { $0[index] } }
                if key.type == 0 { return nil }
                index = OpenAddressing.next(after: index, mask: mask)
            }
        }
    }

    /// Metadata addresses are never 0, and spread by a multiplication as `TypeTable`'s.
    @inline(__always)
    private static func bucket(_ type: UInt, _ signature: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: OpenAddressing.spread(type &+ signature &* 31) >> 32) & mask
    }

    @inline(__always)
    private static func word(_ id: ObjectIdentifier) -> UInt { UInt(bitPattern: Int(bitPattern: id)) }
}
