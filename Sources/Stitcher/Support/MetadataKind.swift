/// What kind of type a metadata record describes, read from its first word (the runtime's
/// `MetadataKind`, stable in Swift's ABI): the few answers the engine needs without a
/// dynamic cast.
///
/// The values are checked once per process, in every build, on types whose kinds are
/// known (`isReliable`); if a runtime ever numbers kinds otherwise, the engine takes the
/// paths that need no kind: values are checked for their dynamic type, and existentials
/// are cast every time instead of presented from templates.
package enum MetadataKind {
    /// `MetadataKind::Existential`: `any P`, `Any`, `AnyObject`.
    static let existential: UInt = 0x303
    private static let structure: UInt = 0x200
    private static let enumeration: UInt = 0x201
    private static let optional: UInt = 0x202
    private static let tuple: UInt = 0x301
    private static let function: UInt = 0x302

    /// Whether this runtime numbers kinds as the engine expects, checked once.
    package static let isReliable: Bool = {
        enum Probe { case one, two }
        return of(Int.self) == structure && of(Probe.self) == enumeration && of(Int?.self) == optional
            && of((Int, Int).self) == tuple && of((() -> Void).self) == function
            && of((any CustomStringConvertible).self) == existential && of(Any.self) == existential
            && of(AnyObject.self) == existential
    }()

    /// The kind word of `type`'s metadata (an `isa` pointer, or 0, for a class).
    @inline(__always)
    static func of(_ type: Any.Type) -> UInt {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    }

    /// Whether `type` is an existential; false whenever kinds cannot be trusted.
    static func isExistential(_ type: Any.Type) -> Bool {
        isReliable && of(type) == existential
    }

    /// Whether every value of `type` has exactly that dynamic type: a struct, an enum, an
    /// optional, a tuple or a function type. Not an existential (its values are of other
    /// types), a class or a metatype (a subclass's instance or metatype is a value too).
    /// False whenever kinds cannot be trusted.
    static func valuesAreExactly(_ type: Any.Type) -> Bool {
        guard isReliable else { return false }
        return switch of(type) {
        case structure, enumeration, optional, tuple, function: true
        default: false
        }
    }
}
