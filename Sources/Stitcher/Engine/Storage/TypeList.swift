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
    @usableFromInline private(set) var tail: [Alias]

    /// A type a dependency can also be injected as, and, for a protocol, how to present an
    /// instance as one.
    @usableFromInline
    struct Alias: Hashable, @unchecked Sendable {
        @usableFromInline let type: TypeKey
        /// Makes the `TypedBox` of this type holding an instance's value (nil when the value
        /// does not conform); nil for a class, whose instances are the answer as they are.
        let view: AliasView?

        @usableFromInline
        init(_ type: TypeKey, view: AliasView? = nil) {
            self.type = type
            self.view = view
        }

        @usableFromInline static func == (lhs: Alias, rhs: Alias) -> Bool { lhs.type == rhs.type }
        @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(type) }
    }

    /// Presents a value as a `TypedBox` of an alias type (see `DirectLookup.Kind.publishedView`).
    @usableFromInline
    typealias AliasView = @Sendable (Any) -> AnyObject?

    /// How to present a value as `A`; nil for a class, which needs no presenting. Inlined
    /// into the modifier that names `A`, so that the closure is compiled for it (no generic
    /// metadata looked up per instance).
    @inlinable
    static func view<A>(as _: A.Type) -> AliasView? {
        if A.self is AnyClass { return nil }
        return { value in
            guard let presented = value as? A else { return nil }
            ExistentialTemplates.learn(presented, from: value)
            return TypedBox(presented)
        }
    }

    @inlinable
    init(_ first: TypeKey, _ others: [Alias] = []) {
        head = first
        tail = others
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { 1 + tail.count }

    @inlinable
    subscript(position: Int) -> TypeKey {
        position == 0 ? head : tail[position - 1].type
    }

    mutating func append(_ alias: Alias) { tail.append(alias) }

    /// The first alias that is presented through a view: the one whose view an entry keeps
    /// (see `IndexEntry.publishedView`).
    var viewedAlias: Alias? { tail.first { $0.view != nil } }

    /// The alias with identity `id`, if any.
    func alias(_ id: ObjectIdentifier) -> Alias? { tail.first { $0.type.id == id } }
}
