/// What kind of type a metadata record describes, read from its first word (the runtime's
/// `MetadataKind`, stable in Swift's ABI): the few answers the engine needs without a
/// dynamic cast.
enum MetadataKind {
    /// `MetadataKind::Existential`: `any P`, `Any`, `AnyObject`.
    static let existential: UInt = 0x303

    /// The kind word of `type`'s metadata (an `isa` pointer, or 0, for a class).
    @inline(__always)
    static func of(_ type: Any.Type) -> UInt {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    }

    /// Whether every value of `type` has exactly that dynamic type: a struct, an enum, an
    /// optional, a tuple or a function type. Not an existential (its values are of other
    /// types), a class or a metatype (a subclass's instance or metatype is a value too).
    static func valuesAreExactly(_ type: Any.Type) -> Bool {
        switch of(type) {
        case 0x200, 0x201, 0x202, 0x301, 0x302: true
        default: false
        }
    }
}
