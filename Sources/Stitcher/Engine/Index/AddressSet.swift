/// A set of objects by address, for a pass that asks of many objects whether they are in
/// it: open addressing over words (`OpenAddressing.bucket(of:shift:)`, as `TypeTable`),
/// where a `Set<ObjectIdentifier>` would hash each address with SipHash.
///
/// It holds no reference: the caller keeps the objects alive while it uses the set.
///
/// ```swift
/// let set = AddressSet([first, second])
/// set.contains(first)  // true
/// ```
struct AddressSet {
    private var buckets: [UInt]
    private let shift: UInt

    /// Generic over the objects' class: an `[IndexEntry]` passed as `[AnyObject]` is
    /// converted element by element, with a dynamic cast each (≈ 300 instructions a
    /// registration when a container replaces 100,000).
    init<Object: AnyObject>(_ objects: [Object]) {
        let size = OpenAddressing.bucketCount(for: objects.count * 2)
        buckets = [UInt](repeating: 0, count: size)
        shift = UInt(UInt.bitWidth - size.trailingZeroBitCount)
        for object in objects {
            let word = Self.word(object)
            var index = OpenAddressing.bucket(of: word, shift: shift)
            while buckets[index] != 0 && buckets[index] != word { index = OpenAddressing.next(after: index, mask: buckets.count - 1) }
            buckets[index] = word
        }
    }

    func contains(_ object: AnyObject) -> Bool {
        let word = Self.word(object)
        var index = OpenAddressing.bucket(of: word, shift: shift)
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                if buckets[index] == word { return true }
                if buckets[index] == 0 { return false }
                index = OpenAddressing.next(after: index, mask: buckets.count - 1)
            }
        }
    }

    @inline(__always)
    private static func word(_ object: AnyObject) -> UInt {
        UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object)))  // an object's address is never 0
    }
}
