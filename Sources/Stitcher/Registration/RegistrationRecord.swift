/// The type-erased form of a registration, as containers store it and the graph indexes it.
struct RegistrationRecord: @unchecked Sendable {
    let locator: DependencyLocator
    let scope: DependencyScope
    let eagerness: DependencyEagerness
    let identity: RegistrationIdentity
    let producedType: TypeKey
    let parameterTypes: [TypeKey]
    let make: (InjectionArguments) throws -> InstanceBox
    let argumentKey: (InjectionArguments) -> ArgumentKey

    init<R: DependencyRepresenting>(_ representation: R) {
        let provider = representation.dependencyProvider
        let locator = representation.locator
        self.locator = locator
        self.scope = representation.scope
        self.eagerness = representation.eagerness
        self.producedType = TypeKey(R.T.self)
        self.parameterTypes = provider.parameterTypes
        self.identity = RegistrationIdentity(locator: locator, parameters: provider.parameterTypes)
        let make = provider.make
        self.make = { arguments in TypedBox(try make(arguments)) }
        self.argumentKey = provider.argumentKey
    }

    /// How the registration reads in diagnostics, e.g. `Type[Widget] (Int) -> Widget, singleton`.
    var summary: String {
        let parameters = parameterTypes.map(\.description).joined(separator: ", ")
        return "\(locator) (\(parameters)) -> \(producedType), \(scope)"
    }
}

/// What a registration is identified by: its primary locator and its parameter types.
///
/// Registering the same identity again replaces the earlier registration; registrations
/// that only share an alias type are distinct.
struct RegistrationIdentity: Hashable, Sendable {
    let primary: LookupKey
    let parameters: [TypeKey]

    init(locator: DependencyLocator, parameters: [TypeKey]) {
        switch locator.kind {
        case .name(let name): primary = .name(name)
        case .value(let value): primary = .value(value)
        case .type(let types): primary = .type(types.first ?? TypeKey(Never.self))
        }
        self.parameters = parameters
    }
}

/// One key under which the index finds registrations.
enum LookupKey: Hashable, @unchecked Sendable {
    case name(String)
    case type(TypeKey)
    case value(AnyHashable)

    var context: InjectionError.DependencyContext {
        switch self {
        case .name(let name): .name(name)
        case .type(let type): .type(type.description)
        case .value(let value): .value(value)
        }
    }
}

/// A stored or newly made instance, kept behind a class reference so that instance slots
/// can publish it atomically.
class InstanceBox: @unchecked Sendable {
    /// True for `TypedBox<T>` of the registration's produced type `T`, which lookups of
    /// exactly `T` read without a dynamic cast.
    let holdsProducedType: Bool

    init(holdsProducedType: Bool) { self.holdsProducedType = holdsProducedType }

    var anyValue: Any { fatalError("abstract") }
    var valueType: TypeKey { fatalError("abstract") }
    /// The instance as an object when it is of a class type (so it can be held weakly).
    var object: AnyObject? { nil }
}

final class TypedBox<T>: InstanceBox, @unchecked Sendable {
    let value: T

    init(_ value: T) {
        self.value = value
        super.init(holdsProducedType: true)
    }

    override var anyValue: Any { value }
    override var valueType: TypeKey { TypeKey(dynamic: Swift.type(of: value as Any)) }
    override var object: AnyObject? {
        Swift.type(of: value as Any) is AnyClass ? (value as AnyObject) : nil
    }
}
