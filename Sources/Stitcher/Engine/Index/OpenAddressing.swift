/// The sizing that `NameTable` and `IdentityTable` share: a power of two of one-word
/// buckets, filled to 7/8 at most, where probing stays short and always meets an empty
/// bucket.
///
/// ```swift
/// OpenAddressing.bucketCount(for: 100_000)      // 131,072
/// OpenAddressing.isFull(count: 7, buckets: 8)  // false: the 8th would make it full
/// ```
enum OpenAddressing {
    /// The buckets a table needs to hold `capacity` entries.
    static func bucketCount(for capacity: Int) -> Int {
        var size = 8
        while size * 7 < capacity * 8 { size <<= 1 }
        return size
    }

    /// Whether `count` entries overfill `buckets` buckets.
    @inline(__always)
    static func isFull(count: Int, buckets: Int) -> Bool {
        count * 8 > buckets * 7
    }
}
