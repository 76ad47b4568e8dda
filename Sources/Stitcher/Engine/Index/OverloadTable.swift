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

    /// A table of `overloads`, each registration of a type under the signature of the
    /// parameters it takes; the pairs are distinct.
    init(_ overloads: [(type: ObjectIdentifier, signature: ObjectIdentifier, entry: IndexEntry)]) {
        guard !overloads.isEmpty else {
            self = .empty
            return
        }
        let count = OpenAddressing.bucketCount(for: overloads.count)
        var keys = [(type: UInt, signature: UInt)](repeating: (0, 0), count: count)
        var entries = [Unmanaged<IndexEntry>?](repeating: nil, count: count)
        for overload in overloads {
            let key = (type: Self.word(overload.type), signature: Self.word(overload.signature))
            var index = Self.bucket(key.type, key.signature, mask: count - 1)
            while keys[index].type != 0 { index = (index + 1) & (count - 1) }
            keys[index] = key
            entries[index] = .passUnretained(overload.entry)
        }
        self.init(keys: keys, entries: entries, mask: count - 1)
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
                index = (index + 1) & mask
            }
        }
    }

    /// Metadata addresses are never 0, and spread by a multiplication as `TypeTable`'s.
    @inline(__always)
    private static func bucket(_ type: UInt, _ signature: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: ((type &+ signature &* 31) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    @inline(__always)
    private static func word(_ id: ObjectIdentifier) -> UInt { UInt(bitPattern: Int(bitPattern: id)) }
}
