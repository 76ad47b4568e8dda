/// The decorations applied to an index (`GraphEngine+Decorations`): which types each
/// decorated entry no longer answers, and which entry each decoration's entry decorates.
/// Immutable, published with its snapshot. (`@unchecked`: it holds entries, which a
/// `ManagedBuffer` cannot declare `Sendable`; see `IndexEntry` for why they may be shared.)
struct IndexDecorations: @unchecked Sendable {
    /// For a decorated entry: the types its decorations answer in its place.
    private(set) var hidden: [ObjectIdentifier: [ObjectIdentifier]] = [:]
    /// For a decoration's entry: the entry it decorates, and the decoration.
    private(set) var derived: [ObjectIdentifier: (original: IndexEntry, key: DecorationKey)] = [:]
    var isEmpty: Bool { hidden.isEmpty }

    func hiddenTypes(of entry: IndexEntry) -> [ObjectIdentifier] {
        hidden[ObjectIdentifier(entry)] ?? []
    }

    /// What `entry` decorates, when it is a decoration's entry.
    func original(of entry: IndexEntry) -> (original: IndexEntry, key: DecorationKey)? {
        derived[ObjectIdentifier(entry)]
    }

    /// Whether `entry` answers requests for `type`.
    func answers(_ entry: IndexEntry, _ type: TypeKey) -> Bool {
        guard case .type(let types) = entry.record.locator.kind, types.contains(type) else { return false }
        return !hiddenTypes(of: entry).contains(type.id)
    }

    mutating func add(_ derivedEntry: IndexEntry, decorating original: IndexEntry, by key: DecorationKey) {
        hidden[ObjectIdentifier(original), default: []].append(key.target.id)
        derived[ObjectIdentifier(derivedEntry)] = (original, key)
    }

    /// These decorations for the entries of `kept` only (an overlay's inherited ones, some
    /// overridden).
    func restricted(to kept: [IndexEntry]) -> IndexDecorations {
        let present = Set(kept.map(ObjectIdentifier.init))
        var result = IndexDecorations()
        result.hidden = hidden.filter { present.contains($0.key) }
        result.derived = derived.filter { present.contains($0.key) }
        return result
    }
}
