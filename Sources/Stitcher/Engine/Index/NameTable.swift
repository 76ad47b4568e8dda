/// An open-addressing hash table of registration names, whose buckets hold the index's
/// row for each name.
///
/// A `[String: UInt]` would do, but Swift dictionaries keep their load under 3/4 by
/// doubling, so 100,000 names land in 262,144 buckets of 24 bytes: about 63 bytes per name.
/// Here a bucket is one word, the row itself, and the table fills up to 7/8: about 10
/// bytes per name, and a lookup reads the row from the bucket it probes. The names are not
/// copied: the caller tells a row's name (the index reads it from the registration).
///
/// A row is a nonzero word whose top 16 bits are free (an address plus flags); the table
/// puts a tag of the name's hash there, which rejects almost every other name without
/// reading it. Should a row ever use those bits (tagged pointers), the table drops its tags
/// and compares names instead.
///
/// A name is filed under `hash(of:)`: 32 bits of its `String.hashValue` (seeded per process,
/// so names chosen by an adversary cannot force collisions), spread over a word. A named
/// registration keeps those 32 bits as its identity hash, so that indexing it hashes no
/// string, and growing the table rehashes none.
///
/// ```swift
/// var table = NameTable(capacity: 2)
/// var names: [UInt: String] = [:]
/// if table.insert(1, named: "db", nameOf: { names[$0]! }) == nil { names[1] = "db" }
/// table.row(named: "db") { names[$0] == "db" }  // 1
/// ```
struct NameTable: Sendable {
    /// Empty (0), or a row with its name's tag in `tagMask` when `isTagged`.
    private var buckets: [UInt]
    /// How many names the table holds.
    private(set) var count = 0
    private let mask: Int
    /// Whether every row leaves the tag bits free, so that buckets carry tags.
    private(set) var isTagged = true

    static let empty = NameTable(capacity: 0)

    /// A table sized for `capacity` names; it grows if more are inserted.
    init(capacity: Int) {
        let size = OpenAddressing.bucketCount(for: capacity)
        buckets = [UInt](repeating: 0, count: size)
        mask = size - 1
    }

    /// The same rows in a table of `size` buckets, tagged when `tagged`.
    private func rebuilt(size: Int, tagged: Bool, hashOf: (UInt) -> Int) -> NameTable {
        var table = NameTable(capacity: size * 7 / 8)
        table.isTagged = tagged
        for bucket in buckets where bucket != 0 {
            let row = isTagged ? bucket & ~Self.tagMask : bucket
            table.place(row, hash: hashOf(row))
        }
        table.count = count
        return table
    }

    /// Puts a row whose name has `hash` in the first free bucket of its probe sequence.
    private mutating func place(_ row: UInt, hash: Int) {
        var index = hash & mask
        while buckets[index] != 0 { index = OpenAddressing.next(after: index, mask: mask) }
        buckets[index] = isTagged ? Self.tag(hash) | row : row
    }

    /// The hash `name` is filed under: the low 32 bits of its `hashValue` (a named
    /// registration's identity hash, `short`), multiplied by a large odd constant so that the
    /// top bits, the tag, depend on all of them.
    @inline(__always)
    static func hash(of name: String) -> Int { hash(short: Int32(truncatingIfNeeded: name.hashValue)) }

    /// `hash(of:)` from the low 32 bits of a name's `hashValue`.
    @inline(__always)
    static func hash(short: Int32) -> Int {
        Int(bitPattern: OpenAddressing.spread(UInt(UInt32(bitPattern: short))))
    }

    /// The row of `name` when the table has one; otherwise nil, after adding `row` for it.
    ///
    /// - Parameters:
    ///   - row: nonzero.
    ///   - nameOf: the name of one of the rows already added.
    ///   - replacement: given the row the table has for `name`, the row to put in its place
    ///     (nonzero), or nil to keep it; the name is hashed and probed once for both.
    mutating func insert(
        _ row: UInt, named name: String, nameOf: (UInt) -> String, replacing replacement: (UInt) -> UInt? = { _ in nil }
    ) -> UInt? {
        insert(
            row, hash: Self.hash(of: name), hashOf: { Self.hash(of: nameOf($0)) }, isNamed: { nameOf($0) == name },
            replacing: replacement)
    }

    /// `insert(_:named:nameOf:replacing:)` for a name whose `hash(of:)` the caller knows.
    ///
    /// - Parameters:
    ///   - hashOf: `hash(of:)` the name of one of the rows already added.
    ///   - isNamed: whether a row's name is the one inserted.
    mutating func insert(
        _ row: UInt, hash: Int, hashOf: (UInt) -> Int, isNamed: (UInt) -> Bool, replacing replacement: (UInt) -> UInt?
    ) -> UInt? {
        precondition(row != 0, "a row is never zero: zero marks an empty bucket")
        if let found = probe(hash, isNamed: isNamed) {
            let existing = buckets[found] & rowMask
            guard let replacing = replacement(existing) else { return existing }
            precondition(replacing != 0, "a row is never zero: zero marks an empty bucket")
            if isTagged && replacing & Self.tagMask != 0 {
                // Untagged first (rare: a row using the tag bits), then found again.
                self = rebuilt(size: buckets.count, tagged: false, hashOf: hashOf)
                buckets[probe(hash, isNamed: isNamed)!] = replacing
            } else {
                buckets[found] = buckets[found] & ~rowMask | replacing
            }
            return existing
        }
        if isTagged && row & Self.tagMask != 0 {
            self = rebuilt(size: buckets.count, tagged: false, hashOf: hashOf)
        }
        if OpenAddressing.isFull(count: count + 1, buckets: buckets.count) {
            self = rebuilt(size: buckets.count * 2, tagged: isTagged, hashOf: hashOf)
        }
        place(row, hash: hash)
        count += 1
        return nil
    }

    /// Makes room for `capacity` names at once when the next insertion would grow the
    /// table: one rebuild instead of a doubling per power of two.
    mutating func reserveCapacityBeforeGrowing(_ capacity: Int, hashOf: (UInt) -> Int) {
        guard OpenAddressing.isFull(count: count + 1, buckets: buckets.count) else { return }
        self = rebuilt(size: OpenAddressing.bucketCount(for: max(capacity, count + 1)), tagged: isTagged, hashOf: hashOf)
    }

    /// The row of `name`, or nil when the table has none.
    ///
    /// - Parameter isNamed: whether a row's name is `name`; asked only of rows whose hash
    ///   tag matches.
    @inline(__always)
    func row(named name: String, isNamed: (UInt) -> Bool) -> UInt? {
        probe(Self.hash(of: name), isNamed: isNamed).map { buckets[$0] & rowMask }
    }

    /// The index of the bucket holding the row of the name with `hash` (see `hash(of:)`).
    @inline(__always)
    private func probe(_ hash: Int, isNamed: (UInt) -> Bool) -> Int? {
        let tag = isTagged ? Self.tag(hash) : 0
        let tagMask = isTagged ? Self.tagMask : 0
        var index = hash & mask
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                let bucket = buckets[index]
                if bucket == 0 { return nil }
                if bucket & tagMask == tag && isNamed(bucket & ~tagMask) { return index }
                index = OpenAddressing.next(after: index, mask: mask)
            }
        }
    }

    /// The bits of a bucket that hold its row.
    private var rowMask: UInt { isTagged ? ~Self.tagMask : ~0 }

    /// The top 16 bits; none on a 32-bit platform, where rows use every bit.
    private static let tagMask = UInt(truncatingIfNeeded: 0xFFFF_0000_0000_0000 as UInt64)

    @inline(__always)
    private static func tag(_ hash: Int) -> UInt {
        UInt(truncatingIfNeeded: hash) & tagMask
    }
}
