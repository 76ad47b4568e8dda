/// An immutable index of every active registration, published atomically by the graph.
///
/// Lookups read a snapshot without locks; activation, deactivation, invalidation and
/// managed-scope resets build a new one. Each key lists its registrations in order.
final class IndexSnapshot: @unchecked Sendable {
    let generation: Int
    let entries: [IndexEntry]
    private let byType: TypeTable
    /// For each name, its row (`NameRow`): the position in `entries` of its only
    /// registration, or in `sharedNameLists` of the list of its several.
    private let byName: NameTable
    private let sharedNameLists: [EntryList]
    private let byValue: [AnyHashable: EntryList]
    private let isIndexed: Bool
    /// The decorations applied to `entries`, nil when none is (`GraphEngine+Decorations`).
    let decorations: IndexDecorations?

    /// The index of `entries`; with `indexed` false (or more registrations than name rows
    /// can number, `NameRow.numberablePositions`), lookups scan them instead.
    convenience init(generation: Int, entries: [IndexEntry], indexed: Bool, capacity: Int, decorations: IndexDecorations? = nil) {
        let indexed = indexed && entries.count <= NameRow.numberablePositions
        var tables = IndexTables(entries: entries, capacity: indexed ? capacity : 0)
        if indexed {
            for (position, entry) in entries.enumerated() { tables.add(entry, at: position, hiding: decorations) }
        }
        self.init(generation: generation, entries: entries, indexed: indexed, tables: tables, decorations: decorations)
    }

    private init(
        generation: Int, entries: [IndexEntry], indexed: Bool, tables: IndexTables, decorations: IndexDecorations?
    ) {
        self.generation = generation
        self.entries = entries
        self.isIndexed = indexed
        self.decorations = decorations
        byType = tables.typeTable()
        byName = tables.byName
        sharedNameLists = tables.sharedNameLists
        byValue = tables.byValue
    }

    /// This index with `added` after its entries, indexed one by one into copies of its
    /// tables (the entries it has are not indexed again): the index of a container activated
    /// after the others, equal to the index built anew from all their entries. A
    /// registration of `added` with the identity of one here replaces it, as the later
    /// container's does. Nil when this index is not indexed or has decorations (the caller
    /// builds the index anew), or when name rows could not number all the registrations.
    ///
    /// - Parameter added: registrations of distinct identities (one container's).
    func adding(_ added: [IndexEntry], generation: Int) -> IndexSnapshot? {
        guard isIndexed, decorations == nil, entries.count + added.count <= NameRow.numberablePositions else { return nil }
        var tables = IndexTables(
            extending: byType, byName, sharedNameLists, byValue, entries: ExtendedEntries(own: entries, added: added))
        for (offset, entry) in added.enumerated() {
            tables.add(entry, at: entries.count + offset, hiding: nil, replacingItsIdentity: true)
        }
        let indexed = tables.removeHidden()
        return IndexSnapshot(generation: generation, entries: indexed, indexed: true, tables: tables, decorations: nil)
    }

    static let empty = IndexSnapshot(generation: 0, entries: [], indexed: true, capacity: 0)

    /// The registrations of a type, in order.
    @inline(__always)
    func entries(ofType id: ObjectIdentifier) -> EntryList? {
        isIndexed ? byType.lookup(id) : scan(for: .type(TypeKey(dynamic: Never.self)), typeID: id)
    }

    /// The direct lookup of the type with identity `id` (see `DirectLookup`).
    @inline(__always)
    func directLookup(ofType id: ObjectIdentifier) -> DirectLookup {
        isIndexed ? byType.directLookup(id) : .none
    }

    /// The registration of the type `id` taking parameters of `signature`, among several
    /// that differ by their parameters (see `OverloadTable`), or nil.
    @inline(__always)
    func overload(ofType id: ObjectIdentifier, accepting signature: ObjectIdentifier) -> Unmanaged<IndexEntry>? {
        byType.overloads.entry(ofType: id, signature: signature)
    }

    /// The lookups answering a request for an array of the type with identity `id` (see
    /// `TypeTable.elementLookups(_:)`); nil when the graph is not indexed.
    @inline(__always)
    func elementLookups(ofType id: ObjectIdentifier) -> TypeTable.ElementLookups? {
        isIndexed ? byType.elementLookups(id) : nil
    }

    /// The direct lookup of `name`, for a request of the type with identity `id`.
    @inline(__always)
    func directLookup(named name: String, as id: ObjectIdentifier) -> DirectLookup {
        guard isIndexed, let row = row(named: name), let lookup = row.directLookup(in: entries),
            lookup.entry.unsafelyUnwrapped._withUnsafeGuaranteedRef({ $0.record.producedType.id == id })
        else { return .none }
        return lookup
    }

    /// The row of `name` (see `byName`).
    @inline(__always)
    private func row(named name: String) -> NameRow? {
        byName.row(named: name) { NameRow(rawValue: $0).isNamed(name, in: entries, sharedNameLists) }.map(NameRow.init(rawValue:))
    }

    /// The bytes of the name table's buckets (for `FootprintTests`).
    var nameTableBytes: Int { byName.bucketBytes }

    /// The registrations under a name, in order.
    @inline(__always)
    func entries(named name: String) -> EntryList? {
        guard isIndexed else { return scan(for: .name(name)) }
        return row(named: name).map { row in
            row.isShared ? sharedNameLists[row.position] : EntryList(row.only(in: entries).takeUnretainedValue())
        }
    }

    /// The registrations associated with a value, in order.
    @inline(__always)
    func entries(for value: AnyHashable) -> EntryList? {
        isIndexed ? byValue[value] : scan(for: .value(value))
    }

    /// The registrations found under `key`, in order.
    func entries(for key: LookupKey) -> EntryList? {
        switch key {
        case .type(let type): entries(ofType: type.id)
        case .name(let name): entries(named: name)
        case .value(let value): entries(for: value)
        }
    }

    @inline(never)
    private func scan(for key: LookupKey, typeID: ObjectIdentifier? = nil) -> EntryList? {
        let found = entries.filter { entry in
            switch (key, entry.record.locator.kind) {
            case (.type, .type(let types)):
                types.contains { $0.id == typeID } && decorations?.hiddenTypes(of: entry).contains(typeID!) != true
            case (.name(let name), .name(let own)): name == own
            case (.value(let value), .value(let own)): value == own
            default: false
            }
        }
        return EntryList(found)
    }
}
