/// An active container: its registrations as last built, and an entry for each that wins.
final class ActiveContainer: @unchecked Sendable {
    let container: DependencyContainer
    private(set) var records: [RegistrationRecord] = []
    /// The entries of the registrations that win within this container (the last of each
    /// identity), in order.
    private(set) var entries: [IndexEntry] = []
    /// The decorations the container lists (`Decoration`), in order: records set apart from
    /// the entries, applied by the graph when it publishes (`GraphEngine+Decorations`).
    private(set) var decorations: [DecorationKey] = []
    /// `entries` by identity, kept only while another container is active (publishing then
    /// asks which identities this container registers), or made when first needed.
    private var identities: IdentityTable?
    private var receipts: [IdentityKey: any ManagedDependencyScopeReceipt] = [:]

    init(_ container: DependencyContainer) { self.container = container }

    /// Takes new registrations, keeping the entries (and stored instances) of the
    /// declarations that are still registered; what it replaces goes to `leftovers`, the
    /// entries it drops to be retired. Caller holds the graph's lock.
    func load(_ records: [RegistrationRecord], graph: GraphEngine, leftovers: inout GraphEngine.Leftovers) {
        let previous = self.entries
        leftovers.garbage.append((self.records, previous))
        self.records = records
        // The previous entries, which a re-run of the same declaration keeps.
        let previousTable = previous.isEmpty ? nil : identityTable()
        // Within a container the last line of each identity wins, at its own position: walk
        // the lines backwards, keep the first of each identity, then restore the order.
        var seen = IdentityTable(capacity: records.count)
        var entries: [IndexEntry] = []
        entries.reserveCapacity(records.count)
        var receipts: [IdentityKey: any ManagedDependencyScopeReceipt] = [:]
        let owner = ObjectIdentifier(self)
        var decorations: [DecorationKey] = []
        for record in records.reversed() {
            if let decoration = DecorationKey.of(record) {
                decorations.append(decoration)
                continue
            }
            // One probe per line: a later line of the same identity, rare, wins.
            if seen.insert(record, at: entries.count, recordAt: { entries[$0].record }) != nil { continue }
            let earlier = previousTable?.position(of: record) { previous[$0].record }.map { previous[$0] }
            let isSameDeclaration = earlier?.record.declaresSameDependency(as: record) ?? false
            entries.append(isSameDeclaration ? earlier! : IndexEntry.make(record: record, owner: owner))
            if let provider = record.managedScope {
                let key = IdentityKey(record)
                if earlier?.record.hasSameScope(as: record) == true, let receipt = self.receipts.removeValue(forKey: key) {
                    receipts[key] = receipt
                } else {
                    receipts[key] = provider.onScopeInvalidated { [graph, weak self] in
                        // Cancelling a receipt does not stop a call already in flight: the
                        // graph is held strongly (until the receipt is cancelled on
                        // deactivation) and ignores a container it no longer has.
                        guard let self else { return }
                        graph.resetManagedScope(of: key, in: self)
                    }
                }
            }
        }
        entries.reverse()
        self.decorations = decorations.reversed()
        for receipt in self.receipts.values { receipt.cancel() }
        if !previous.isEmpty {
            let kept = Set(entries.map(ObjectIdentifier.init))
            leftovers.retiring += previous.lazy.filter { !kept.contains(ObjectIdentifier($0)) }
        }
        self.entries = entries
        // Alone in its graph, this container is never asked which identities it registers
        // until a managed scope is reset or another container is activated.
        self.identities = graph.hasActive(besides: self) ? IdentityTable(distinct: entries) : nil
        self.receipts = receipts
    }

    /// Whether this container registers the identity of `record`. Caller holds the graph's lock.
    func registers(_ record: RegistrationRecord) -> Bool {
        position(of: record) != nil
    }

    /// The position in `entries` of the registration with the identity of `record`.
    private func position(of record: RegistrationRecord) -> Int? {
        let entries = self.entries
        return identityTable().position(of: record) { entries[$0].record }
    }

    /// `identities`, made now if needed.
    private func identityTable() -> IdentityTable {
        if let identities { return identities }
        let table = IdentityTable(distinct: entries)
        identities = table
        return table
    }

    /// Gives a managed registration a fresh entry and returns the old one; nil when the
    /// registration is no longer there. Caller holds the graph's lock.
    func renewEntry(for identity: IdentityKey) -> IndexEntry? {
        guard let position = position(of: identity.record) else { return nil }
        let old = entries[position]
        entries[position] = old.renewed()
        return old
    }

    /// Gives every registration that stores instances a fresh entry and returns the old ones.
    /// Caller holds the graph's lock.
    func renewStoringEntries() -> [IndexEntry] {
        var old: [IndexEntry] = []
        for position in entries.indices where entries[position].record.lifetime.storesInstances {
            old.append(entries[position])
            entries[position] = entries[position].renewed()
        }
        return old
    }

    /// Cancels scope observations and drops every entry.
    func unload() {
        for receipt in receipts.values { receipt.cancel() }
        receipts.removeAll()
        identities = nil
        records.removeAll()
        entries.removeAll()
        decorations.removeAll()
    }
}
