/// The tables of an index while it is built, one registration at a time: from nothing
/// (`IndexSnapshot.init`), or from a published index's tables, to which a container
/// activated after the others adds its registrations (`IndexSnapshot.adding(_:generation:)`).
///
/// One place decides where a registration is indexed, so that an index extended with a
/// container's registrations is the index built from all of them anew.
struct IndexTables {
    /// The registrations indexed so far, and those about to be, in order: what name rows
    /// number (`NameRow.position`).
    private let entries: ExtendedEntries
    /// The registrations of each type indexed so far: every type when built from nothing;
    /// when extending, only the types of added registrations (the others keep their lists in
    /// `previousTypes`).
    private var byType: [ObjectIdentifier: EntryList] = [:]
    private let previousTypes: TypeTable?
    private(set) var byName: NameTable
    private(set) var sharedNameLists: [EntryList]
    private(set) var byValue: [AnyHashable: EntryList]
    /// How many registrations may still be added (when extending): room the name table makes
    /// at once when it must grow.
    private var upcoming = 0
    /// Registrations of the index extended that added ones replace (`add`), and of those,
    /// the ones located by type (listed under their types).
    private var hidden: [IndexEntry] = []
    private var hiddenByType: [IndexEntry] = []
    /// Types left with no registration once the hidden ones are taken out.
    private var removedTypes: Set<ObjectIdentifier> = []

    /// Empty tables for `entries`, the name table sized for `capacity` names.
    init(entries: [IndexEntry], capacity: Int) {
        self.entries = ExtendedEntries(own: entries, added: [])
        previousTypes = nil
        byName = capacity == 0 ? .empty : NameTable(capacity: capacity, largestRow: NameRow.largest(numbering: entries.count))
        sharedNameLists = []
        byValue = [:]
    }

    /// A published index's tables, to add registrations to: `entries` are the index's own
    /// and the added ones (each table is copied when first changed; the index they came
    /// from is left as it is).
    init(
        extending types: TypeTable, _ names: NameTable, _ sharedNameLists: [EntryList], _ values: [AnyHashable: EntryList],
        entries: ExtendedEntries
    ) {
        self.entries = entries
        upcoming = entries.added.count
        previousTypes = types
        byName = names
        self.sharedNameLists = sharedNameLists
        byValue = values
    }

    /// Indexes `entry` after the registrations indexed so far, except under the types
    /// `decorations` hide (a decoration answers those in its place).
    ///
    /// With `replacingItsIdentity`, a registration indexed so far that has `entry`'s
    /// identity is taken out of the index (`hidden`), as the index built anew would leave
    /// it out: the later container's registration wins.
    mutating func add(
        _ entry: IndexEntry, at position: Int, hiding decorations: IndexDecorations?, replacingItsIdentity checked: Bool = false
    ) {
        assert(entries.entry(at: position).toOpaque() == Unmanaged.passUnretained(entry).toOpaque(), "its position")
        switch entry.record.locator.kind {
        case .type(let types):
            if checked, let list = lists(ofType: types.head.id),
                let indexed = Self.entry(in: list, withIdentityOf: entry, type: types.head.id)
            {
                hidden.append(indexed)
                hiddenByType.append(indexed)
            }
            let hiddenTypes = decorations?.hiddenTypes(of: entry) ?? []
            for type in types where !hiddenTypes.contains(type.id) { add(entry, ofType: type.id) }
        case .name(let name):
            add(entry, at: position, named: name, checked: checked)
        case .value(let value):
            if checked, let list = byValue[value], let indexed = Self.entry(in: list, withIdentityOf: entry) {
                hidden.append(indexed)
                byValue[value] = list.removing(indexed)
            }
            // Appended in place: a copy out of the dictionary would copy the list each time.
            if byValue[value]?.append(entry) == nil { byValue[value] = EntryList(entry) }
        }
    }

    /// The registrations of the type `id` indexed so far.
    private func lists(ofType id: ObjectIdentifier) -> EntryList? {
        byType[id] ?? previousTypes?.lookup(id)
    }

    private mutating func add(_ entry: IndexEntry, ofType id: ObjectIdentifier) {
        if byType[id]?.append(entry) != nil { return }
        if var list = previousTypes?.lookup(id) {
            list.append(entry)
            byType[id] = list
        } else {
            byType[id] = EntryList(entry)
        }
    }

    /// Indexes `entry`, at `position` in `entries`, under `name`: its row holds the entry's
    /// position while it is the name's only registration, the position of a shared list
    /// once there are several.
    private mutating func add(_ entry: IndexEntry, at position: Int, named name: String, checked: Bool) {
        if upcoming > 0 {
            let largest = NameRow.largest(numbering: entries.count)
            if byName.needsRebuild(forRowUpTo: largest) {
                let (entries, lists) = (entries, sharedNameLists)
                byName.reserve(byName.count + upcoming, rowsUpTo: largest) { NameRow(rawValue: $0).nameHash(in: entries, lists) }
            }
            upcoming -= 1
        }
        // Static, given each table on its own: reading names from the shared lists while the
        // name table changes then overlaps no access (nor copies the lists).
        Self.add(entry, at: position, named: name, checked: checked, to: &byName, &sharedNameLists, entries, hidden: &hidden)
    }

    private static func add(
        _ entry: IndexEntry, at position: Int, named name: String, checked: Bool, to names: inout NameTable,
        _ lists: inout [EntryList], _ entries: ExtendedEntries, hidden: inout [IndexEntry]
    ) {
        let row = NameRow(position: position, kind: DirectLookup.kind(of: entry, as: entry.record.producedType.id))
        // The registration's identity hash is its name's (see `NameTable.hash(of:)`).
        _ = names.insert(
            row.rawValue, hash: NameTable.hash(short: Int32(truncatingIfNeeded: entry.record.identityHash)),
            hashOf: { NameRow(rawValue: $0).nameHash(in: entries, lists) },
            isNamed: { NameRow(rawValue: $0).isNamed(name, in: entries, lists) }
        ) { bits in
            let existing = NameRow(rawValue: bits)
            if existing.isShared {
                let list = existing.position
                if checked, let indexed = Self.entry(in: lists[list], withIdentityOf: entry) {
                    hidden.append(indexed)
                    // Several share the name: at least one other stays.
                    lists[list] = lists[list].removing(indexed)!
                }
                lists[list].append(entry)
                return nil
            }
            let only = existing.only(in: entries).takeUnretainedValue()
            if checked, Self.hasIdentity(of: entry, only) {
                hidden.append(only)
                return row.rawValue
            }
            var list = EntryList(only)
            list.append(entry)
            lists.append(list)
            return NameRow(sharedList: lists.count - 1).rawValue
        }
    }

    /// The registrations indexed, in order: the index's own but those `add` found hidden,
    /// then the added ones. Takes the hidden ones out of the type lists too (in one pass over
    /// each list, however many it hides), and renumbers the name rows of the registrations
    /// that moved up.
    mutating func removeHidden() -> [IndexEntry] {
        guard !hidden.isEmpty else { return entries.added.isEmpty ? entries.own : entries.own + entries.added }
        let removed = AddressSet(hidden)
        removeHiddenFromTypeLists(removed)
        return renumberNames(removing: removed)
    }

    private mutating func removeHiddenFromTypeLists(_ removed: AddressSet) {
        var types: Set<ObjectIdentifier> = []
        for entry in hiddenByType {
            if case .type(let own) = entry.record.locator.kind { own.forEach { types.insert($0.id) } }
        }
        for type in types {
            guard let list = lists(ofType: type) else { continue }
            byType[type] = EntryList(list.entries.filter { !removed.contains($0) })
            if byType[type] == nil { removedTypes.insert(type) }
        }
    }

    /// `entries` without `removed`, which are all the index's own (the added ones have
    /// distinct identities), and the rows of the others moved with them. No row names a
    /// removed registration: `add` replaced its row, or took it out of its list.
    private mutating func renumberNames(removing removed: AddressSet) -> [IndexEntry] {
        var positions = [Int32](repeating: -1, count: entries.own.count)
        var kept: [IndexEntry] = []
        kept.reserveCapacity(entries.count - hidden.count)
        for (position, entry) in entries.own.enumerated() where !removed.contains(entry) {
            positions[position] = Int32(truncatingIfNeeded: kept.count)
            kept.append(entry)
        }
        let (own, shift) = (entries.own.count, entries.own.count - kept.count)
        byName.renumber { bits in
            let row = NameRow(rawValue: bits)
            if row.isShared { return bits }
            let moved = row.position < own ? Int(positions[row.position]) : row.position - shift
            assert(moved >= 0, "no row names a removed registration")
            return row.moved(to: moved).rawValue
        }
        return kept + entries.added
    }

    /// The registration of `list` that has the identity of `entry` (whatever its container),
    /// where the list is of `entry`'s name or value (with `type` nil), or of its first type.
    private static func entry(in list: EntryList, withIdentityOf entry: IndexEntry, type: ObjectIdentifier? = nil) -> IndexEntry? {
        var found: IndexEntry?
        list.forEach { other in
            guard found == nil, hasIdentity(of: entry, other) else { return }
            if let type {
                guard case .type(let types) = other.record.locator.kind, types.head.id == type else { return }
            }
            found = other
        }
        return found
    }

    /// Whether `other`, found under `entry`'s name or value or first type, has its identity:
    /// the same parameter types (the key being the same). Compared through the identity hash
    /// first, without making either identity (which copies the locator).
    @inline(__always)
    private static func hasIdentity(of entry: IndexEntry, _ other: IndexEntry) -> Bool {
        let record = entry.record
        let candidate = other.record
        return candidate.identityHash == record.identityHash && candidate.takesSameParameters(as: record)
    }

    /// The type table: built from the lists when the tables were built from nothing; the
    /// previous table with the changed types' lists otherwise.
    func typeTable() -> TypeTable {
        guard let previousTypes else { return TypeTable(byType) }
        return previousTypes.updating(byType, removing: removedTypes)
    }
}
