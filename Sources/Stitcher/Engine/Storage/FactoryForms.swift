// How a provider holds its factory and tells one factory from another: the wrappers that let
// a factory of any shape be passed as a generic value, the provider's flags, and a closure's
// identity (its code address and context).

/// An asynchronous factory taking a parameter pack, wrapped to be passed as a generic value.
struct AsyncPackFactory<T, each Parameter> {
    let call: @Sendable (repeat each Parameter) async throws -> T
}

/// A factory taking a parameter pack, wrapped so that it can be passed as a generic value.
@usableFromInline
struct PackFactory<T, each Parameter> {
    @usableFromInline let call: @Sendable (repeat each Parameter) throws -> T
    @usableFromInline init(call: @escaping @Sendable (repeat each Parameter) throws -> T) { self.call = call }
}

/// What a provider knows of its factory beyond its closures (`DependencyFactory.Provider.traits`).
@usableFromInline
struct ProviderTraits: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    @inlinable static var storesObjects: ProviderTraits { ProviderTraits(rawValue: 1) }
    @inlinable static var alwaysAware: ProviderTraits { ProviderTraits(rawValue: 2) }
    @inlinable static var callsClassFactory: ProviderTraits { ProviderTraits(rawValue: 4) }
}

/// A closure's code address and context.
///
/// (Declared `@usableFromInline` for the inlined provider initializer.)
///
/// A Swift closure value is that pair. Two runs of a closure expression that captures
/// nothing are equal; a capturing closure gets a new context each run, so it compares equal
/// only to itself (its captures may differ).
///
/// Read as the two words of a thick closure (its code and its context) when the value is
/// two words long, checked for every read; otherwise the identity is `unknown`, equal to
/// none, and a re-run builder gets fresh instances instead of keeping those of the lines it
/// ran before. Nothing else about the layout needs checking for memory safety: the words
/// are only compared, never followed, and both records compared are alive (so no context
/// address is reused meanwhile). A layout that put other words there could only make two
/// closures compare unequal (a thunk's context is a fresh box: slower, not wrong), or
/// equal for different captured values (an instance kept across a re-run), never worse.
@usableFromInline
struct ClosureIdentity: Equatable, Sendable {
    @usableFromInline let code: UInt
    @usableFromInline let context: UInt

    @usableFromInline
    init(code: UInt, context: UInt) {
        self.code = code
        self.context = context
    }

    /// An identity that could not be read: equal to no other.
    static let unknown = ClosureIdentity(code: 0, context: 0)

    var isKnown: Bool { code != 0 }

    @usableFromInline
    static func == (lhs: ClosureIdentity, rhs: ClosureIdentity) -> Bool {
        lhs.isKnown && lhs.code == rhs.code && lhs.context == rhs.context
    }
}

/// The identity of a closure (or of a struct holding only a closure), or an unknown one
/// (`ClosureIdentity.unknown`) when it is not two words long.
///
/// Self-contained, so that the optimizer may bring its body into the registering module
/// (cross-module optimization): a call it cannot see through would keep the factory from
/// being specialized into the closure that makes instances (an indirect call per instance).
@usableFromInline
func codeAddress<F>(of closure: F) -> ClosureIdentity {
    guard MemoryLayout<F>.size == 2 * MemoryLayout<UInt>.size else { return ClosureIdentity(code: 0, context: 0) }
    let (code, context) = unsafeBitCast(closure, to: (UInt, UInt).self)
    return ClosureIdentity(code: code, context: context)
}
