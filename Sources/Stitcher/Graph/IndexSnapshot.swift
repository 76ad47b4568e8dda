/// One active registration as the index sees it: the record and where its instances live.
final class IndexEntry: @unchecked Sendable {
    let record: RegistrationRecord
    let slot: InstanceSlot
    /// The active container the registration belongs to: with the identity, what tells
    /// two registrations apart on a resolution path that crosses graphs.
    let owner: ObjectIdentifier

    init(record: RegistrationRecord, slot: InstanceSlot, owner: ObjectIdentifier) {
        self.record = record
        self.slot = slot
        self.owner = owner
    }

    /// Whether this entry and `other` stand for the same registration of the same container.
    @inline(__always)
    func isSameRegistration(as other: IndexEntry) -> Bool {
        self === other
            || (record.identityHash == other.record.identityHash && owner == other.owner
                && record.identity == other.record.identity)
    }
}

/// An immutable index of every active registration, published atomically by the graph.
///
/// Lookups read a snapshot without locks; activation, deactivation, invalidation and
/// managed-scope resets build a new one. Each key lists its registrations in order.
final class IndexSnapshot: @unchecked Sendable {
    let generation: Int
    let entries: [IndexEntry]
    private let byType: TypeTable
    /// For each name, its position in `nameLists` and `nameLookups`.
    private let byName: NameTable
    private let nameLists: [EntryList]
    /// For each name, its `DirectLookup` for a request of the type it produces.
    private let nameLookups: [DirectLookup]
    private let byValue: [AnyHashable: EntryList]
    private let isIndexed: Bool

    init(generation: Int, entries: [IndexEntry], indexed: Bool, capacity: Int) {
        self.generation = generation
        self.entries = entries
        self.isIndexed = indexed
        var byType: [ObjectIdentifier: EntryList] = [:]
        var byValue: [AnyHashable: EntryList] = [:]
        var positions = NameTable.empty
        var nameLists: [EntryList] = []
        func add<Key: Hashable>(_ entry: IndexEntry, _ key: Key, to table: inout [Key: EntryList]) {
            if table[key]?.append(entry) == nil { table[key] = EntryList(entry) }
        }
        if indexed {
            positions = NameTable(capacity: capacity)
            nameLists.reserveCapacity(capacity)
            for entry in entries {
                switch entry.record.locator.kind {
                case .type(let types):
                    for type in types { add(entry, type.id, to: &byType) }
                case .name(let name):
                    let (position, inserted) = positions.insert(name)
                    if inserted {
                        nameLists.append(EntryList(entry))
                    } else {
                        nameLists[position].append(entry)
                    }
                case .value(let value):
                    add(entry, value, to: &byValue)
                }
            }
        }
        self.byType = TypeTable(byType)
        self.byName = positions
        self.nameLists = nameLists
        self.nameLookups = nameLists.map { list in
            DirectLookup(list, requestedType: list.single?.record.producedType.id ?? ObjectIdentifier(Never.self))
        }
        self.byValue = byValue
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

    /// The direct lookup of `name`, for a request of the type with identity `id`.
    @inline(__always)
    func directLookup(named name: String, as id: ObjectIdentifier) -> DirectLookup {
        guard isIndexed, let position = byName.position(of: name), case let lookup = nameLookups[position], let entry = lookup.entry,
              entry._withUnsafeGuaranteedRef({ $0.record.producedType.id == id })
        else { return .none }
        return lookup
    }

    /// The registrations under a name, in order.
    @inline(__always)
    func entries(named name: String) -> EntryList? {
        isIndexed ? byName.position(of: name).map { nameLists[$0] } : scan(for: .name(name))
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
            case let (.type, .type(types)): types.contains { $0.id == typeID }
            case let (.name(name), .name(own)): name == own
            case let (.value(value), .value(own)): value == own
            default: false
            }
        }
        return EntryList(found)
    }
}
