/// An open-addressing hash table from a registration name to its position in the index.
///
/// A `[String: Int]` would do, but Swift dictionaries keep their load under 3/4 by doubling,
/// so 100,000 names land in 262,144 buckets of 24 bytes: about 63 bytes per name. Here a
/// bucket is one word (a tag of the name's hash and the position) and the table fills up
/// to 7/8, while the names themselves are kept once, in position order: about 26 bytes per
/// name. The tag rejects almost every other name without reading it.
///
/// Names are hashed with `String.hashValue`, which is seeded per process, so names chosen
/// by an adversary cannot force collisions.
struct NameTable: Sendable {
    /// Empty (0), or the hash's high 32 bits above the position plus one.
    private var buckets: [UInt64]
    private var names: [String] = []
    private let mask: Int

    static let empty = NameTable(capacity: 0)

    /// A table sized for `capacity` names; it grows if more are inserted.
    init(capacity: Int) {
        var size = 8
        while size * 7 < capacity * 8 { size <<= 1 }
        buckets = [UInt64](repeating: 0, count: size)
        mask = size - 1
        names.reserveCapacity(capacity)
    }

    /// The same names at the same positions, in a table twice the size.
    private func grown() -> NameTable {
        var larger = NameTable(capacity: buckets.count * 2)
        for name in names { _ = larger.insert(name) }
        return larger
    }

    /// How many names the table holds.
    var count: Int { names.count }

    /// The position of `name`, adding it at the next position if it is new.
    ///
    /// - Returns: the position, and whether the name was added.
    mutating func insert(_ name: String) -> (position: Int, inserted: Bool) {
        let hash = name.hashValue
        let tag = Self.tag(hash)
        var index = hash & mask
        while true {
            let bucket = buckets[index]
            if bucket == 0 {
                if (names.count + 1) * 8 > buckets.count * 7 {
                    self = grown()
                    return insert(name)
                }
                let position = names.count
                names.append(name)
                buckets[index] = tag | UInt64(position + 1)
                return (position, true)
            }
            if bucket & Self.tagMask == tag {
                let position = Int(truncatingIfNeeded: bucket & Self.positionMask) - 1
                if names[position] == name { return (position, false) }
            }
            index = (index + 1) & mask
        }
    }

    /// The position of `name`, or nil when it is not in the table.
    @inline(__always)
    func position(of name: String) -> Int? {
        let hash = name.hashValue
        let tag = Self.tag(hash)
        var index = hash & mask
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                let bucket = buckets[index]
                if bucket == 0 { return nil }
                if bucket & Self.tagMask == tag {
                    let position = Int(truncatingIfNeeded: bucket & Self.positionMask) - 1
                    if names[position] == name { return position }
                }
                index = (index + 1) & mask
            }
        }
    }

    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000
    private static let positionMask: UInt64 = 0x0000_0000_FFFF_FFFF

    @inline(__always)
    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: hash) & tagMask
    }
}
