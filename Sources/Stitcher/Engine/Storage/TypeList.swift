/// The types a type locator finds a dependency by: its own type first, then its aliases.
///
/// Most locators have no alias, and every `Dependency { … }` starts with a type locator
/// even when a modifier then names it: holding the first type inline means that neither
/// allocates an array.
///
/// ```swift
/// var types = TypeList(TypeKey(Database.self))
/// types.append(TypeKey((any Store).self))
/// Array(types)  // [Database, any Store]
/// ```
@usableFromInline
struct TypeList: RandomAccessCollection, Hashable, @unchecked Sendable {
    @usableFromInline let head: TypeKey
    /// The types after the first; empty (no allocation) for a single type.
    @usableFromInline private(set) var tail: [TypeKey]

    @inlinable
    init(_ first: TypeKey, _ others: [TypeKey] = []) {
        head = first
        tail = others
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { 1 + tail.count }

    @inlinable
    subscript(position: Int) -> TypeKey {
        position == 0 ? head : tail[position - 1]
    }

    mutating func append(_ type: TypeKey) { tail.append(type) }
}
