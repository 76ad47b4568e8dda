/// An open-addressing hash table from a registration name to its position in the index.
///
/// A `[String: Int]` would do, but Swift dictionaries keep their load under 3/4 by doubling,
/// so 100,000 names land in 262,144 buckets of 24 bytes: about 63 bytes per name. Here a
/// bucket is one word (a tag of the name's hash and the position) and the table fills up
/// to 7/8, and the names are not copied: the caller tells the name at a position (the
/// index reads it from the registration), about 10 bytes per name. The tag rejects almost
/// every other name without reading it.
///
/// Names are hashed with `String.hashValue`, which is seeded per process, so names chosen
/// by an adversary cannot force collisions.
///
/// ```swift
/// var table = NameTable(capacity: 2)
/// var names: [String] = []
/// if table.insert("db", nameAt: { names[$0] }).inserted { names.append("db") }
/// table.position(of: "db") { names[$0] == "db" }  // 0
/// ```
struct NameTable: Sendable {
    /// Empty (0), or the hash's high 32 bits above the position plus one.
    private var buckets: [UInt64]
    /// How many names the table holds, at positions `0..<count`.
    private(set) var count = 0
    private let mask: Int

    static let empty = NameTable(capacity: 0)

    /// A table sized for `capacity` names; it grows if more are inserted.
    init(capacity: Int) {
        var size = 8
        while size * 7 < capacity * 8 { size <<= 1 }
        buckets = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// The same names at the same positions, in a table twice the size.
    private func grown(nameAt: (Int) -> String) -> NameTable {
        var larger = NameTable(capacity: buckets.count * 2)
        for position in 0..<count { larger.place(nameAt(position).hashValue, at: position) }
        larger.count = count
        return larger
    }

    /// Puts a position whose name has `hash` in the first free bucket of its probe sequence.
    private mutating func place(_ hash: Int, at position: Int) {
        var index = hash & mask
        while buckets[index] != 0 { index = (index + 1) & mask }
        buckets[index] = Self.tag(hash) | UInt64(position + 1)
    }

    /// The position of `name`, giving it the next position if it is new; the caller then
    /// keeps the name so that `nameAt` returns it for that position.
    ///
    /// - Parameter nameAt: the name at one of the positions already given.
    /// - Returns: the position, and whether the name was added.
    mutating func insert(_ name: String, nameAt: (Int) -> String) -> (position: Int, inserted: Bool) {
        let hash = name.hashValue
        let tag = Self.tag(hash)
        var index = hash & mask
        while true {
            let bucket = buckets[index]
            if bucket == 0 { break }
            if bucket & Self.tagMask == tag {
                let position = Int(truncatingIfNeeded: bucket & Self.positionMask) - 1
                if nameAt(position) == name { return (position, false) }
            }
            index = (index + 1) & mask
        }
        if (count + 1) * 8 > buckets.count * 7 { self = grown(nameAt: nameAt) }
        place(hash, at: count)
        count += 1
        return (count - 1, true)
    }

    /// The position of `name`, or nil when it is not in the table.
    ///
    /// - Parameter isNamed: whether the name at a position is `name`; asked only of
    ///   positions whose hash tag matches.
    @inline(__always)
    func position(of name: String, isNamed: (Int) -> Bool) -> Int? {
        let hash = name.hashValue
        let tag = Self.tag(hash)
        var index = hash & mask
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                let bucket = buckets[index]
                if bucket == 0 { return nil }
                if bucket & Self.tagMask == tag {
                    let position = Int(truncatingIfNeeded: bucket & Self.positionMask) - 1
                    if isNamed(position) { return position }
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
