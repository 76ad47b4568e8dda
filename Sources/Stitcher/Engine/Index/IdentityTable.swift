/// An open-addressing hash table of registrations by identity (see `RegistrationIdentity`),
/// for loading a container: it finds the later line of the same identity, and the entry a
/// builder's re-run keeps.
///
/// A bucket is one word: the registration's 32-bit identity hash, computed once when its
/// record was made, above its position plus one. The registrations stay in
/// the caller's array, so inserting hashes nothing and copies nothing; a
/// `[IdentityKey: IndexEntry]` would run SipHash per line and take about 42 bytes per
/// registration, where this takes about 10.
///
/// ```swift
/// var table = IdentityTable(capacity: records.count)
/// for (position, record) in records.enumerated() {
///     if let earlier = table.insert(record, at: position, recordAt: { records[$0] }) { … }
/// }
/// ```
struct IdentityTable: Sendable {
    /// Empty (0), or the 32-bit identity hash above the position plus one.
    private var buckets: [UInt64]
    private let mask: Int
    /// How many positions were added.
    private(set) var count = 0

    /// A table for up to `capacity` registrations, filled to 7/8 at most.
    init(capacity: Int) {
        let size = OpenAddressing.bucketCount(for: capacity)
        buckets = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// A table of the records of `entries`, at their positions: the entries of one
    /// container, which holds one registration of each identity (`ActiveContainer.load`
    /// keeps the last line of each), so each goes to the first empty bucket of its probe
    /// without comparing records (an activation beside another container makes one: a
    /// closure call and three reference counts a registration less).
    init(distinct entries: [IndexEntry]) {
        self.init(capacity: entries.count)
        precondition(entries.count < Int(UInt32.max), "positions fit in 32 bits")
        entries.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                let hash = entries[position].record.identityHash
                assert(self.position(of: entries[position].record) { entries[$0].record } == nil, "one entry per identity")
                var index = hash & mask
                while buckets[index] != 0 { index = OpenAddressing.next(after: index, mask: mask) }
                buckets[index] = Self.bucket(hash, position)
            }
        }
        count = entries.count
    }

    /// The position of a registration with `record`'s identity, or nil after adding
    /// `position` for it. At most `capacity` positions may be added.
    ///
    /// - Parameter recordAt: the record at one of the positions already added.
    mutating func insert(
        _ record: RegistrationRecord, at position: Int, recordAt: (Int) -> RegistrationRecord
    ) -> Int? {
        let hash = record.identityHash
        var index = hash & mask
        while true {
            let bucket = buckets[index]
            if bucket == 0 { break }
            if let found = Self.position(in: bucket, ifItHolds: record, recordAt) { return found }
            index = OpenAddressing.next(after: index, mask: mask)
        }
        // A full table would make probing loop forever.
        precondition(!OpenAddressing.isFull(count: count + 1, buckets: buckets.count), "an IdentityTable holds no more than its capacity")
        precondition(position >= 0 && position < Int(UInt32.max), "positions fit in 32 bits")
        buckets[index] = Self.bucket(hash, position)
        count += 1
        return nil
    }

    /// The position of a registration with `record`'s identity, or nil when there is none.
    func position(of record: RegistrationRecord, recordAt: (Int) -> RegistrationRecord) -> Int? {
        var index = record.identityHash & mask
        while true {
            let bucket = buckets[index]
            if bucket == 0 { return nil }
            if let found = Self.position(in: bucket, ifItHolds: record, recordAt) { return found }
            index = OpenAddressing.next(after: index, mask: mask)
        }
    }

    /// The position in a full bucket when its registration has `record`'s identity.
    @inline(__always)
    private static func position(
        in bucket: UInt64, ifItHolds record: RegistrationRecord, _ recordAt: (Int) -> RegistrationRecord
    ) -> Int? {
        guard bucket & tagMask == tag(record.identityHash) else { return nil }
        let position = Int(truncatingIfNeeded: bucket & positionMask) - 1
        let other = recordAt(position)
        guard other === record || (other.identityHash == record.identityHash && other.identity == record.identity)
        else { return nil }
        return position
    }

    /// The bucket of the registration at `position` with the identity hash `hash`.
    @inline(__always)
    private static func bucket(_ hash: Int, _ position: Int) -> UInt64 {
        tag(hash) | UInt64(position + 1)
    }

    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000
    private static let positionMask: UInt64 = 0x0000_0000_FFFF_FFFF

    @inline(__always)
    private static func tag(_ hash: Int) -> UInt64 {
        // Identity hashes have 32 bits (see `RegistrationRecord.identityHash`).
        UInt64(UInt32(truncatingIfNeeded: hash)) << 32
    }
}
