/// A type used as a dictionary key: hashed and compared by identity, printed by its
/// unqualified name. One word: the identity is the metadata address itself.
@usableFromInline
struct TypeKey: Hashable, @unchecked Sendable, CustomStringConvertible {
    @usableFromInline let type: Any.Type

    @inlinable @inline(__always)
    init<T>(_ type: T.Type) {
        self.type = type
    }

    init(dynamic type: Any.Type) {
        self.type = type
    }

    @inline(__always)
    var id: ObjectIdentifier { ObjectIdentifier(type) }

    @usableFromInline var description: String { String(describing: type) }

    @usableFromInline static func == (lhs: TypeKey, rhs: TypeKey) -> Bool { lhs.id == rhs.id }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Whether values of `T` are reference types, so that they can be shared.
@inlinable @inline(__always)
func isReferenceType<T>(_ type: T.Type) -> Bool {
    type is AnyClass || type is AnyObject.Type
}
