/// Where the index keeps the registrations of one name: the 32-bit row a `NameTable` bucket
/// holds for it.
///
/// - When one registration has the name: its position in the index's `entries`, and the
///   `DirectLookup.Kind` of a request for the type it produces (in the low three bits).
/// - When several have it: the position of their list in the index's `sharedNameLists`,
///   with `sharedFlag`.
///
/// Positions are stored plus one, so that no row is zero (an empty bucket). A row of 32 bits
/// instead of the entry's address halves the table (5 bytes a name instead of 10, at
/// 100,000 names), for one more load on a named lookup: the entry's address, from `entries`.
/// The entries are held unretained: the index's `entries` keeps them alive.
///
/// ```swift
/// let row = NameRow(position: 41, kind: .shared)
/// row.position  // 41
/// row.isShared  // false
/// ```
struct NameRow: Equatable {
    let rawValue: UInt32

    static let sharedFlag: UInt32 = 0b1000

    /// How many registrations an index may number in its rows. An index with more (which
    /// would take tens of gigabytes) is not indexed: its lookups scan (`IndexSnapshot`).
    static let numberablePositions = Int(UInt32.max >> 4) - 1

    @inline(__always)
    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The row of the only registration of a name, at `position` in the index's `entries`.
    init(position: Int, kind: DirectLookup.Kind) {
        assert(position < Self.numberablePositions, "the index numbers its registrations in 28 bits")
        rawValue = UInt32(truncatingIfNeeded: position + 1) << 4 | UInt32(kind.rawValue)
    }

    /// The row of a name several registrations share, listed at `list` in `sharedNameLists`.
    init(sharedList list: Int) {
        assert(list < Self.numberablePositions, "the index numbers its lists in 28 bits")
        rawValue = UInt32(truncatingIfNeeded: list + 1) << 4 | Self.sharedFlag
    }

    /// The largest row of an index of `count` registrations: none of its positions, nor of
    /// its shared lists (fewer than its registrations), exceeds it.
    static func largest(numbering count: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: count) << 4 | 0b1111
    }

    /// Whether several registrations share the name.
    @inline(__always)
    var isShared: Bool { rawValue & Self.sharedFlag != 0 }

    /// The position in `entries` (one registration) or `sharedNameLists` (several).
    @inline(__always)
    var position: Int { Int(rawValue >> 4) &- 1 }

    /// The direct lookup of a row of one registration that the direct path answers; nil
    /// for a shared row or a lookup of kind `.none`.
    @inline(__always)
    func directLookup(in entries: [IndexEntry]) -> DirectLookup? {
        let kind = UInt(rawValue) & DirectLookup.kindMask
        guard !isShared, kind != 0 else { return nil }
        // The kind's bits as `DirectLookup(_:_:)` would set them, without converting them to
        // a `Kind` and back.
        return DirectLookup(bits: only(in: entries)._withUnsafeGuaranteedRef { DirectLookup.address(of: $0) } | kind)
    }

    /// The row with its position changed to `position`.
    func moved(to position: Int) -> NameRow {
        NameRow(rawValue: UInt32(truncatingIfNeeded: position + 1) << 4 | rawValue & 0b1111)
    }

    /// The only registration of a row that is not shared, unretained.
    @inline(__always)
    func only(in entries: some NumberedEntries) -> Unmanaged<IndexEntry> {
        entries.entry(at: position)
    }

    /// The first registration of the row, unretained.
    @inline(__always)
    func first(in entries: some NumberedEntries, _ lists: [EntryList]) -> Unmanaged<IndexEntry> {
        isShared ? Unmanaged.passUnretained(lists[position].first) : only(in: entries)
    }

    /// `NameTable.hash(of:)` the row's name, from its first registration's identity hash.
    func nameHash(in entries: some NumberedEntries, _ lists: [EntryList]) -> Int {
        NameTable.hash(short: first(in: entries, lists)._withUnsafeGuaranteedRef { Int32(truncatingIfNeeded: $0.record.identityHash) })
    }

    /// Whether the row's name is `name`, read from its first registration without copying it.
    @inline(__always)
    func isNamed(_ name: String, in entries: some NumberedEntries, _ lists: [EntryList]) -> Bool {
        first(in: entries, lists)._withUnsafeGuaranteedRef { $0.record.locator.isLocatedBy(name: name) }
    }
}

/// The registrations name rows number, by position: an index's `entries`, or while an index
/// is extended, its entries followed by the added ones (`ExtendedEntries`), which are made
/// one array only once the index knows which of its own the added ones replace.
protocol NumberedEntries {
    /// The registration at `position`, unretained: the caller holds what holds it.
    func entry(at position: Int) -> Unmanaged<IndexEntry>
}

extension [IndexEntry]: NumberedEntries {
    @inline(__always)
    func entry(at position: Int) -> Unmanaged<IndexEntry> {
        withUnsafeBufferPointer { Unmanaged.passUnretained($0[position]) }
    }
}

/// An index's registrations followed by those added to it (`IndexSnapshot.adding`).
struct ExtendedEntries: NumberedEntries {
    let own: [IndexEntry]
    let added: [IndexEntry]

    var count: Int { own.count + added.count }

    @inline(__always)
    func entry(at position: Int) -> Unmanaged<IndexEntry> {
        position < own.count ? own.entry(at: position) : added.entry(at: position - own.count)
    }
}
