/// What the index's open-addressing tables share: the sizing of `NameTable`,
/// `IdentityTable`, `OverloadTable` and `AddressSet` (a power of two of buckets, filled to
/// 7/8 at most, where probing stays short and always meets an empty bucket), and how words
/// that are already good hashes or addresses are spread over the buckets.
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

    /// `word` multiplied by a large odd constant (Fibonacci hashing): every bit of `word`
    /// reaches the top bits, which is where tables take their bucket or tag from. A metadata
    /// or object address costs this multiplication instead of a SipHash.
    @inline(__always)
    static func spread(_ word: UInt) -> UInt { word &* 0x9E37_79B9_7F4A_7C15 }

    /// The bucket of `word` in a table of `1 << (UInt.bitWidth - shift)` buckets: the top
    /// bits of `spread(word)`. A table has 8 buckets at least, so `shift` is below the word's
    /// width, and the masking shift (one instruction) gives what `>>` would (three: `>>`
    /// also handles a shift by the whole width).
    @inline(__always)
    static func bucket(of word: UInt, shift: UInt) -> Int {
        assert(shift < UInt(UInt.bitWidth), "a table has at least 8 buckets")
        return Int(truncatingIfNeeded: spread(word) &>> shift)
    }

    /// The bucket after `index` in a table whose bucket count is `mask + 1`, wrapping around.
    @inline(__always)
    static func next(after index: Int, mask: Int) -> Int {
        (index &+ 1) & mask
    }
}
