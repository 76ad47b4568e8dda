/// An open-addressing hash table of registration names, whose buckets hold the index's
/// row for each name: a 32-bit number (`NameRow`) that the index turns into its entries.
///
/// A `[String: UInt]` would do, but Swift dictionaries keep their load under 3/4 by
/// doubling, so 100,000 names land in 262,144 buckets of 24 bytes: about 63 bytes per name.
/// Here a bucket is four bytes, the row itself, and the table fills up to 7/8: about 5
/// bytes per name, and a lookup reads the row from the bucket it probes. The names are not
/// copied: the caller tells a row's name (the index reads it from the registration).
///
/// A row uses the low `rowBits` bits of its bucket, as few as the largest row needs; the
/// table puts a tag of the name's hash in the bits above, which rejects almost every other
/// name without reading it. A row that needs more bits shortens every tag in place
/// (`widenRows(to:)`); with no tag left, at 32 bits, the table compares names instead.
///
/// A name is filed under `hash(of:)`: 32 bits of its `String.hashValue` (seeded per process,
/// so names chosen by an adversary cannot force collisions), spread over a word. A named
/// registration keeps those 32 bits as its identity hash, so that indexing it hashes no
/// string, and growing the table rehashes none.
///
/// ```swift
/// var table = NameTable(capacity: 2)
/// var names: [UInt32: String] = [:]
/// if table.insert(1, named: "db", nameOf: { names[$0]! }) == nil { names[1] = "db" }
/// table.row(named: "db") { names[$0] == "db" }  // 1
/// ```
struct NameTable: Sendable {
    /// Empty (0), or a row in the low `rowBits` bits and its name's tag in the others.
    private var buckets: [UInt32]
    /// How many names the table holds.
    private(set) var count = 0
    private let mask: Int
    /// The low bits of a bucket, which hold its row; the bits above hold the tag. Kept, not
    /// derived from a width, so that a probe computes nothing from it.
    private var rowMask: UInt32

    /// How many low bits of a bucket hold its row.
    var rowBits: Int { rowMask.nonzeroBitCount }

    /// The bytes the buckets take (what the table costs, but for its array's header).
    var bucketBytes: Int { buckets.count * MemoryLayout<UInt32>.stride }

    static let empty = NameTable(capacity: 0)

    /// A table sized for `capacity` names, whose rows are at most `largestRow`; it grows if
    /// more names or larger rows are inserted.
    init(capacity: Int, largestRow: UInt32 = 0xFFFF) {
        let size = OpenAddressing.bucketCount(for: capacity)
        buckets = [UInt32](repeating: 0, count: size)
        mask = size - 1
        rowMask = Self.mask(bits: Self.bitsHolding(largestRow))
    }

    /// The mask of the low `bits` bits of a bucket.
    private static func mask(bits: Int) -> UInt32 { bits >= UInt32.bitWidth ? ~0 : (1 << UInt32(bits)) - 1 }

    /// The bits a row up to `row` needs: at least 16, so that small tables do not rebuild
    /// for every power of two their rows cross.
    private static func bitsHolding(_ row: UInt32) -> Int {
        max(16, UInt32.bitWidth - row.leadingZeroBitCount)
    }

    /// The same rows in a table of `size` buckets, each row in `rowBits` bits.
    private func rebuilt(size: Int, rowBits: Int, hashOf: (UInt32) -> Int) -> NameTable {
        var table = NameTable(capacity: size * 7 / 8)
        table.rowMask = Self.mask(bits: rowBits)
        for bucket in buckets where bucket != 0 {
            let row = bucket & rowMask
            table.place(row, hash: hashOf(row))
        }
        table.count = count
        return table
    }

    /// Puts a row whose name has `hash` in the first free bucket of its probe sequence.
    private mutating func place(_ row: UInt32, hash: Int) {
        var index = hash & mask
        while buckets[index] != 0 { index = OpenAddressing.next(after: index, mask: mask) }
        buckets[index] = tag(hash) | row
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
        _ row: UInt32, named name: String, nameOf: (UInt32) -> String, replacing replacement: (UInt32) -> UInt32? = { _ in nil }
    ) -> UInt32? {
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
        _ row: UInt32, hash: Int, hashOf: (UInt32) -> Int, isNamed: (UInt32) -> Bool, replacing replacement: (UInt32) -> UInt32?
    ) -> UInt32? {
        precondition(row != 0, "a row is never zero: zero marks an empty bucket")
        if let (found, bucket) = probe(hash, isNamed: isNamed) {
            let existing = bucket & rowMask
            guard let replacing = replacement(existing) else { return existing }
            precondition(replacing != 0, "a row is never zero: zero marks an empty bucket")
            // Shorter tags first when the row needs more bits (rare: rows outgrew what the caller
            // reserved); no bucket moves.
            if replacing & ~rowMask != 0 { widenRows(to: Self.bitsHolding(replacing)) }
            buckets[found] = tag(hash) | replacing
            return existing
        }
        if row & ~rowMask != 0 { widenRows(to: Self.bitsHolding(row)) }
        if OpenAddressing.isFull(count: count + 1, buckets: buckets.count) {
            self = rebuilt(size: buckets.count * 2, rowBits: rowBits, hashOf: hashOf)
        }
        place(row, hash: hash)
        count += 1
        return nil
    }

    /// Makes room at once for `capacity` names and rows up to `largestRow`, when the table
    /// would otherwise grow on the way: one rebuild, when the next insertion needs one,
    /// instead of one per power of two and one for wider rows.
    mutating func reserve(_ capacity: Int, rowsUpTo largestRow: UInt32, hashOf: (UInt32) -> Int) {
        let bits = max(rowBits, Self.bitsHolding(largestRow))
        if OpenAddressing.isFull(count: count + 1, buckets: buckets.count) {
            self = rebuilt(size: OpenAddressing.bucketCount(for: max(capacity, count + 1)), rowBits: bits, hashOf: hashOf)
        } else if bits != rowBits {
            widenRows(to: bits)
        }
    }

    /// Gives rows `bits` bits (more than they have), in place: a tag is the hash's top bits
    /// above the row, so each bucket's shorter tag is its tag less the bits the row takes,
    /// and no name is hashed again. One pass over the buckets, in order.
    private mutating func widenRows(to bits: Int) {
        let (old, new) = (rowMask, Self.mask(bits: bits))
        buckets.withUnsafeMutableBufferPointer { buckets in
            for index in buckets.indices { buckets[index] = buckets[index] & ~new | buckets[index] & old }
        }
        rowMask = new
    }

    /// Whether inserting one more row, up to `largestRow`, would rebuild the table or widen
    /// its rows.
    @inline(__always)
    func needsRebuild(forRowUpTo largestRow: UInt32) -> Bool {
        OpenAddressing.isFull(count: count + 1, buckets: buckets.count) || largestRow & ~rowMask != 0
    }

    /// Rewrites every row through `renumbered` (nonzero rows, up to those the table holds),
    /// keeping each in its bucket: for an index whose registrations moved.
    mutating func renumber(_ renumbered: (UInt32) -> UInt32) {
        let rowMask = rowMask
        buckets.withUnsafeMutableBufferPointer { buckets in
            for index in buckets.indices where buckets[index] != 0 {
                let row = renumbered(buckets[index] & rowMask)
                assert(row != 0 && row & ~rowMask == 0, "a renumbered row fits where its row was")
                buckets[index] = buckets[index] & ~rowMask | row
            }
        }
    }

    /// The row of `name`, or nil when the table has none.
    ///
    /// - Parameter isNamed: whether a row's name is `name`; asked only of rows whose hash
    ///   tag matches.
    @inline(__always)
    func row(named name: String, isNamed: (UInt32) -> Bool) -> UInt32? {
        probe(Self.hash(of: name), isNamed: isNamed).map { $0.bucket & rowMask }
    }

    /// The bucket holding the row of the name with `hash` (see `hash(of:)`), and its index.
    @inline(__always)
    private func probe(_ hash: Int, isNamed: (UInt32) -> Bool) -> (index: Int, bucket: UInt32)? {
        let tag = tag(hash)
        let rowMask = rowMask
        var index = hash & mask
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                let bucket = buckets[index]
                if bucket == 0 { return nil }
                if bucket & ~rowMask == tag && isNamed(bucket & rowMask) { return (index, bucket) }
                index = OpenAddressing.next(after: index, mask: mask)
            }
        }
    }

    /// The tag of a name with `hash`: the hash's top bits, where the bucket's row leaves room.
    @inline(__always)
    private func tag(_ hash: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt(bitPattern: hash) &>> UInt(UInt.bitWidth - UInt32.bitWidth)) & ~rowMask
    }
}
