/// Decorations (`Decoration`): a container's entry that wraps every instance of a type other
/// containers register, applied when the graph publishes its index.
///
/// For each active decoration of `T`, in activation order, every entry that answers `T`
/// (after overriding, and after the decorations before it) gets a decoration entry: a
/// registration answering only `T`, with the same scope and parameters, whose instance is
/// the decorated instance of the entry it decorates. The decorated entry stops answering `T`
/// in the index (`IndexDecorations.hidden`) and keeps answering its other types, with its
/// own instances. Decoration entries are kept across publications while both the decorated
/// entry and the decoration are, so that their instances are too; the others are retired
/// as any entry leaving the graph is (docs/Reclamation.md).
extension GraphEngine {
    /// Applies the active containers' decorations to `entries`, the index about to be
    /// published, after those `inherited` from the graph this one is layered over; returns
    /// what the index needs to know of them (nil when there are none). Caller holds `lock`.
    func decorate(
        _ entries: inout [IndexEntry], inheriting inherited: IndexDecorations?, _ leftovers: inout Leftovers
    ) -> IndexDecorations? {
        let decorations = active.flatMap { container in container.decorations.map { ($0, ObjectIdentifier(container)) } }
        if decorations.isEmpty && decorationEntries.isEmpty { return inherited }
        var applied = inherited ?? IndexDecorations()
        var kept: [DecorationEntryKey: IndexEntry] = [:]
        for (key, owner) in decorations {
            var decorated: [IndexEntry] = []
            decorated.reserveCapacity(entries.count + 1)
            for entry in entries {
                decorated.append(entry)
                guard applied.answers(entry, key.target) else { continue }
                let entryKey = DecorationEntryKey(decorated: entry, by: key)
                let derived = decorationEntries[entryKey] ?? IndexEntry.make(record: key.deriving(from: entry), owner: owner)
                kept[entryKey] = derived
                applied.add(derived, decorating: entry, by: key)
                decorated.append(derived)
            }
            entries = decorated
        }
        for (entryKey, entry) in decorationEntries where kept[entryKey] == nil { leftovers.retiring.append(entry) }
        decorationEntries = kept
        return applied.isEmpty ? nil : applied
    }
}

/// A decoration entry's place: the entry it decorates and the decoration, held so that
/// neither identity is reused while the key is kept.
struct DecorationEntryKey: Hashable {
    let decorated: IndexEntry
    let decoration: DecorationKey

    init(decorated entry: IndexEntry, by key: DecorationKey) {
        decorated = entry
        decoration = key
    }

    static func == (lhs: DecorationEntryKey, rhs: DecorationEntryKey) -> Bool {
        lhs.decorated === rhs.decorated && lhs.decoration === rhs.decoration
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(decorated))
        hasher.combine(ObjectIdentifier(decoration))
    }
}
