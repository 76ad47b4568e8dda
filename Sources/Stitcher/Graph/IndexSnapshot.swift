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
    private let byType: [ObjectIdentifier: [IndexEntry]]
    private let byName: [String: [IndexEntry]]
    private let byValue: [AnyHashable: [IndexEntry]]
    private let isIndexed: Bool

    private static let noEntries: [IndexEntry] = []

    init(generation: Int, entries: [IndexEntry], indexed: Bool, capacity: Int) {
        self.generation = generation
        self.entries = entries
        self.isIndexed = indexed
        var byType: [ObjectIdentifier: [IndexEntry]] = [:]
        var byName: [String: [IndexEntry]] = [:]
        var byValue: [AnyHashable: [IndexEntry]] = [:]
        if indexed {
            byType.reserveCapacity(capacity)
            for entry in entries {
                switch entry.record.locator.kind {
                case .type(let types):
                    for type in types { byType[type.id, default: []].append(entry) }
                case .name(let name):
                    byName[name, default: []].append(entry)
                case .value(let value):
                    byValue[value, default: []].append(entry)
                }
            }
        }
        self.byType = byType
        self.byName = byName
        self.byValue = byValue
    }

    static let empty = IndexSnapshot(generation: 0, entries: [], indexed: true, capacity: 0)

    /// The registrations found under `key`, in order.
    @inline(__always)
    func candidates(for key: LookupKey) -> [IndexEntry] {
        guard isIndexed else { return scan(for: key) }
        switch key {
        case .type(let type): return byType[type.id] ?? Self.noEntries
        case .name(let name): return byName[name] ?? Self.noEntries
        case .value(let value): return byValue[value] ?? Self.noEntries
        }
    }

    private func scan(for key: LookupKey) -> [IndexEntry] {
        entries.filter { entry in
            switch (key, entry.record.locator.kind) {
            case let (.type(type), .type(types)): types.contains(type)
            case let (.name(name), .name(own)): name == own
            case let (.value(value), .value(own)): value == own
            default: false
            }
        }
    }
}
