/// The parameters passed at an injection site.
///
/// One word: nil when there are no parameters, so injections without parameters pass and
/// copy a null pointer. Otherwise the values live in an `ArgumentPack` whose class,
/// `ArgumentPack<repeat each P>`, is unique per list of parameter types: comparing class
/// identities (`signature`) matches the parameters a registration takes, and lets its
/// factory read the values without a dynamic cast.
@usableFromInline
struct InjectionArguments: @unchecked Sendable {
    @usableFromInline let pack: AnyArgumentPack?

    /// The signature of an injection without parameters.
    @usableFromInline static let noParameters = ObjectIdentifier(AnyArgumentPack.self)

    /// No parameters.
    @inlinable
    static var none: InjectionArguments { InjectionArguments(pack: nil) }

    @inlinable
    init(pack: AnyArgumentPack?) { self.pack = pack }

    @inlinable
    init<each P: Hashable>(_ parameters: repeat each P) {
        var count = 0
        for _ in repeat (each P).self { count += 1 }
        pack = count == 0 ? nil : ArgumentPack(repeat each parameters)
    }

    /// Equal to the `signature` of the providers that accept these parameters.
    @inline(__always)
    var signature: ObjectIdentifier {
        guard let pack else { return Self.noParameters }
        return ObjectIdentifier(type(of: pack))
    }

    /// The static types of the parameters, in order.
    var types: [TypeKey] { pack?.types ?? [] }

    var typeNames: [String] { types.map(\.description) }

    /// The values, to keep one stored instance per distinct list of parameters.
    var key: ArgumentKey { pack?.key ?? .empty }

    /// A hash of the values, computed without allocating; 0 without parameters.
    var hash: Int { pack?.hash ?? 0 }
}

/// Parameter values of any types (see `ArgumentPack`).
@usableFromInline
class AnyArgumentPack: @unchecked Sendable {
    @usableFromInline init() {}
    var types: [TypeKey] { [] }
    var key: ArgumentKey { .empty }
    var hash: Int { 0 }
}

/// The parameter values of one injection, typed.
@usableFromInline
final class ArgumentPack<each P: Hashable>: AnyArgumentPack, @unchecked Sendable {
    @usableFromInline let values: (repeat each P)

    @inlinable
    init(_ values: repeat each P) {
        self.values = (repeat each values)
        super.init()
    }

    override var types: [TypeKey] {
        var types: [TypeKey] = []
        repeat types.append(TypeKey((each P).self))
        return types
    }

    override var key: ArgumentKey {
        var keys: [AnyHashable] = []
        repeat keys.append(AnyHashable(each values))
        return ArgumentKey(values: keys)
    }

    override var hash: Int {
        var hasher = Hasher()
        repeat hasher.combine(each values)
        return hasher.finalize()
    }
}

/// The parameter values of an injection, used to keep one stored instance per distinct
/// set of parameters.
struct ArgumentKey: Hashable, @unchecked Sendable {
    let values: [AnyHashable]
    static let empty = ArgumentKey(values: [])
}
