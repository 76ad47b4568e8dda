/// The registrations found under one key, in activation and registration order.
///
/// A value, built while the index is: a key with one registration, the common case, costs
/// no allocation (an empty array shares static storage).
struct EntryList: @unchecked Sendable {
    let first: IndexEntry
    private var others: [IndexEntry] = []

    init(_ first: IndexEntry) { self.first = first }

    init?(_ entries: [IndexEntry]) {
        guard let first = entries.first else { return nil }
        self.first = first
        others = Array(entries.dropFirst())
    }

    mutating func append(_ entry: IndexEntry) { others.append(entry) }

    /// The list without `entry`; nil when nothing else is left.
    func removing(_ entry: IndexEntry) -> EntryList? {
        EntryList(entries.filter { $0 !== entry })
    }

    /// The only entry, when there is exactly one.
    @inline(__always)
    var single: IndexEntry? { others.isEmpty ? first : nil }

    /// The only entry that accepts `arguments`, when exactly one does: what `RequestAnswer`
    /// answers then, found without making an array (a type registered with and without
    /// parameters, injected with them).
    @inline(never)
    func onlyAccepting(_ arguments: InjectionArguments) -> IndexEntry? {
        var found = first.record.accepts(arguments) ? first : nil
        for entry in others where entry.record.accepts(arguments) {
            if found != nil { return nil }
            found = entry
        }
        return found
    }

    /// The entry that answers an injection of the type `id` without parameters: the only
    /// one, or the only one taking none among registrations that differ by their parameters,
    /// or among several taking none, the one whose own type is `id` (see `answering(_:as:)`).
    func answeringWithoutParameters(as id: ObjectIdentifier) -> IndexEntry? {
        if others.isEmpty { return first }
        return Self.answering(entries.filter { !$0.record.takesParameters }, as: id)
    }

    /// Which of `candidates` (registrations that all accept the injection's parameters)
    /// answers a request for the type `id`: the only one; or, among several, the only one
    /// whose own type is `id`, since the exact type wins over an alias (a test container's
    /// `Dependency { FakeRouter() as Router }` beside registrations that list `Router`
    /// among their aliases); nil when that leaves none or several (an ambiguity).
    static func answering(_ candidates: [IndexEntry], for key: LookupKey) -> IndexEntry? {
        if case .type(let type) = key { return answering(candidates, as: type.id) }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// `answering(_:for:)` a request for the type `id`.
    static func answering(_ candidates: [IndexEntry], as id: ObjectIdentifier) -> IndexEntry? {
        if candidates.count == 1 { return candidates[0] }
        var found: IndexEntry?
        for entry in candidates where entry.record.producedType.id == id {
            if found != nil { return nil }
            found = entry
        }
        return found
    }

    var entries: [IndexEntry] { [first] + others }

    /// How many entries the list holds.
    var count: Int { 1 + others.count }

    /// Calls `body` with each entry in order, without making an array of them.
    @inline(__always)
    func forEach(_ body: (IndexEntry) throws -> Void) rethrows {
        try body(first)
        for entry in others { try body(entry) }
    }
}

/// An open-addressing hash table from a type's identity to its registrations.
///
/// Type identities are metadata addresses: multiplying by a large odd constant spreads them
/// well enough (`OpenAddressing.spread(_:)`), which costs a fraction of the SipHash a
/// `Dictionary` would compute.
struct TypeTable: @unchecked Sendable {
    private var keys: [UInt]
    private var lists: [EntryList?]
    /// For each type, its `DirectLookup` (read by the direct path without reference counting).
    private var direct: [DirectLookup]
    /// For each type with several registrations, the lookup of each as an element of an
    /// array of the type (see `elementLookups(_:)`); nil for the others.
    private var elements: [[DirectLookup]?]
    /// The registrations of types whose lookup has `DirectLookup.overloadsFlag`.
    private(set) var overloads = OverloadTable.empty
    /// How many types the table holds.
    private var count = 0
    private let mask: Int
    private let shift: UInt

    init(_ lists: [ObjectIdentifier: EntryList]) {
        self.init(capacity: Self.capacity(for: lists.count))
        var overloads: [OverloadTable.Overload] = []
        for (id, list) in lists { set(list, for: id, overloads: &overloads) }
        self.overloads = OverloadTable(overloads)
    }

    /// An empty table of `capacity` buckets (a power of two).
    private init(capacity: Int) {
        keys = [UInt](repeating: 0, count: capacity)
        lists = [EntryList?](repeating: nil, count: capacity)
        direct = [DirectLookup](repeating: .none, count: capacity)
        elements = [[DirectLookup]?](repeating: nil, count: capacity)
        mask = capacity - 1
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
    }

    /// Buckets for `count` types: at most half full.
    private static func capacity(for count: Int) -> Int {
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        return capacity
    }

    /// This table with the registrations of each type in `changed` replaced by its list
    /// there (added when the table lacks the type), and without the types in `removed`; the
    /// other types keep what they had, lookups included, without being looked at again.
    func updating(_ changed: [ObjectIdentifier: EntryList], removing removed: Set<ObjectIdentifier>) -> TypeTable {
        if changed.isEmpty && removed.isEmpty { return self }
        var table = self
        if (count + changed.count) * 2 > keys.count || !removed.isEmpty {
            // Moved, as they are, into a new table (open addressing removes by rebuilding).
            let gone = Set(removed.map { UInt(bitPattern: Int(bitPattern: $0)) })
            table = TypeTable(capacity: Self.capacity(for: count + changed.count))
            for index in keys.indices where keys[index] != 0 && !gone.contains(keys[index]) {
                let position = table.freeOrMatchingPosition(of: keys[index])
                table.keys[position] = keys[index]
                table.lists[position] = lists[index]
                table.direct[position] = direct[index]
                table.elements[position] = elements[index]
                table.count += 1
            }
        }
        var overloads: [OverloadTable.Overload] = []
        for (id, list) in changed { table.set(list, for: id, overloads: &overloads) }
        table.overloads = self.overloads.replacing(types: Set(changed.keys).union(removed), with: overloads)
        return table
    }

    /// Puts `list`, the registrations of the type `id`, in the table with its lookups, and
    /// appends its overloads (see `OverloadTable`) to `overloads`.
    private mutating func set(_ list: EntryList, for id: ObjectIdentifier, overloads: inout [OverloadTable.Overload]) {
        let key = UInt(bitPattern: Int(bitPattern: id))  // metadata addresses are never 0
        let index = freeOrMatchingPosition(of: key)
        if keys[index] == 0 { count += 1 }
        keys[index] = key
        lists[index] = list
        direct[index] = DirectLookup(list, requestedType: id)
        elements[index] = nil
        if list.single == nil {
            // A registration taking parameters is left out of an array injected without
            // any: marked so whatever type it is requested as.
            elements[index] = list.entries.map { entry in
                DirectLookup(entry, entry.record.takesParameters ? .parameterized : DirectLookup.kind(of: entry, as: id))
            }
            if let found = Self.directOverloads(in: list, as: id) {
                direct[index] = direct[index].withOverloads
                overloads += found.map { (id, $0.record.signature, $0) }
            }
        }
    }

    /// The bucket holding `key`, or the empty one where it goes.
    private func freeOrMatchingPosition(of key: UInt) -> Int {
        var index = Self.slot(key, shift: shift, mask: mask)
        while keys[index] != 0 && keys[index] != key { index = OpenAddressing.next(after: index, mask: mask) }
        return index
    }

    /// The registrations of `list` (several) that take parameters, when an injection of the
    /// type `id` with parameters can be answered from them directly: each has a signature
    /// of its own (so at most one accepts an injection's) and is a `.parameterized` lookup
    /// of `id` (its stored form is the answer); nil otherwise, or when none takes any.
    private static func directOverloads(in list: EntryList, as id: ObjectIdentifier) -> [IndexEntry]? {
        // In place, without a copy of the list: a type registered under 100,000 names made
        // activation 10% slower when it was copied.
        var found: [IndexEntry] = []
        var signatures: Set<ObjectIdentifier> = []
        var direct = true
        list.forEach { entry in
            guard direct, entry.record.takesParameters else { return }
            direct = DirectLookup.kind(of: entry, as: id) == .parameterized && signatures.insert(entry.record.signature).inserted
            found.append(entry)
        }
        return direct && !found.isEmpty ? found : nil
    }

    @inline(__always)
    private static func slot(_ key: UInt, shift: UInt, mask: Int) -> Int {
        OpenAddressing.bucket(of: key, shift: shift) & mask
    }

    /// The position of the type with identity `id` in the table, or nil.
    @inline(__always)
    private func position(of id: ObjectIdentifier) -> Int? {
        let key = UInt(bitPattern: Int(bitPattern: id))
        var index = Self.slot(key, shift: shift, mask: mask)
        return keys.withUnsafeBufferPointer { keys in
            while true {
                let candidate = keys[index]
                if candidate == key { return index }
                if candidate == 0 { return nil }
                index = OpenAddressing.next(after: index, mask: mask)
            }
        }
    }

    /// The direct lookup of the type with identity `id`; `.none` when there is none.
    @inline(__always)
    func directLookup(_ id: ObjectIdentifier) -> DirectLookup {
        guard let index = position(of: id) else { return .none }
        return direct.withUnsafeBufferPointer { $0[index] }
    }

    /// The lookups of the registrations of the type with identity `id` as elements of an
    /// array of it, in order (empty when there is none): what a request for the type alone
    /// would be answered with, registrations taking parameters included.
    @inline(__always)
    func elementLookups(_ id: ObjectIdentifier) -> ElementLookups {
        guard let index = position(of: id) else { return .none }
        if let many = elements[index] { return .many(many) }
        return .one(direct.withUnsafeBufferPointer { $0[index] })
    }

    enum ElementLookups {
        case none
        case one(DirectLookup)
        case many([DirectLookup])
    }

    /// The registrations of the type with identity `id`, or nil.
    @inline(__always)
    func lookup(_ id: ObjectIdentifier) -> EntryList? {
        position(of: id).flatMap { lists[$0] }
    }
}
