/// The type-erased form of a registration, as containers store it and the graph indexes it.
///
/// Instances are handled as `AnyObject` in their stored form: the object itself when the
/// produced type `T` is a class, a `TypedBox<T>` otherwise. Lookups of exactly `T` turn the
/// stored form back into a `T` without a dynamic cast.
final class RegistrationRecord: @unchecked Sendable {
    // Ordered so that the one-byte fields and the 32-bit hash fill the word after the
    // locator: with the 16-byte object header, 112 bytes make a 112-byte allocation, where
    // a 64-bit hash would make 128.
    let locator: DependencyLocator
    let eagerness: DependencyEagerness
    /// Whether `T` is a class, so that instances are stored as themselves.
    let storesObjects: Bool
    /// Whether every `T` is `PostInstantiationAware`; otherwise only instances whose dynamic
    /// type differs from `T` (subclasses, values behind an existential) need a check.
    let alwaysAware: Bool
    /// `identity.hashValue` cut to 32 bits (see `identityHash`).
    private let shortIdentityHash: Int32
    let scope: DependencyScope
    let producedType: TypeKey
    /// The parameter types and signature; nil when the registration takes no parameters,
    /// which most do, so that they pay one word for both.
    private let parameters: RegistrationParameters?
    /// The code address of the factory (see `DependencyFactory.Provider.origin`).
    let origin: ClosureIdentity
    /// Runs the factory and returns the instance in stored form, before `finish(_:)`; the
    /// caller has checked that the arguments match `signature`. Held in a `let` of a final
    /// class, so that calling it borrows its context instead of retaining it.
    let make: (InjectionArguments) throws -> AnyObject
    /// The form of boxed instances and the asynchronous factory, when there are.
    let extras: FactoryExtras?

    init<R: DependencyRepresenting>(_ representation: R) {
        typealias T = R.T
        let provider = representation.dependencyProvider
        let locator = representation.locator
        self.locator = locator
        self.scope = representation.scope
        self.eagerness = representation.eagerness
        self.producedType = TypeKey(T.self)
        self.parameters = provider.parameterTypes.isEmpty
            ? nil : RegistrationParameters(types: provider.parameterTypes, signature: provider.signature)
        let hash = RegistrationIdentity(locator: locator, parameters: provider.parameterTypes).hashValue
        self.shortIdentityHash = Int32(truncatingIfNeeded: hash)
        self.origin = provider.origin
        storesObjects = provider.storesObjects
        alwaysAware = provider.alwaysAware
        make = provider.make
        extras = provider.extras
    }

    /// A hash of `identity`, compared before the identities themselves when walking the
    /// resolution path or a table of registrations. 32 bits are enough to filter, and keep
    /// the record one size class smaller.
    @inline(__always)
    var identityHash: Int { Int(shortIdentityHash) }

    /// Whether the registration takes parameters.
    @inline(__always)
    var takesParameters: Bool { parameters != nil }

    /// The types of the parameters the registration takes, in order.
    var parameterTypes: [TypeKey] { parameters?.types ?? [] }

    /// Whether the factory is asynchronous.
    var isAsync: Bool { extras?.makeAsync != nil }

    /// Calls `didInstantiate()` on a new instance in stored form, which is returned.
    @inline(__always)
    func finish(_ instance: __owned AnyObject) -> AnyObject {
        if storesObjects {
            if alwaysAware || ObjectIdentifier(type(of: instance)) != producedType.id {
                (instance as? PostInstantiationAware)?.didInstantiate()
            }
        } else {
            let box = unsafeDowncast(instance, to: InstanceBox.self)
            if alwaysAware || box.holdsAnotherType {
                (box.anyValue as? PostInstantiationAware)?.didInstantiate()
            }
        }
        return instance
    }

    /// `make(_:)` from asynchronous code: runs an asynchronous factory, or the synchronous one.
    func makeAsync(_ arguments: InjectionArguments) async throws -> AnyObject {
        if let makeAsync = extras?.makeAsync { return try await makeAsync(arguments) }
        return try make(arguments)
    }

    /// The object a shared registration holds weakly for an instance in stored form; nil
    /// when the instance is a value, which cannot be shared.
    func weakTarget(_ instance: AnyObject) -> AnyObject? {
        storesObjects ? instance : extras?.form?.weakTarget(instance)
    }

    /// The stored form of an instance found alive through its weak reference.
    func restore(_ object: AnyObject) -> AnyObject? {
        storesObjects ? object : extras?.form?.restore(object)
    }

    /// What the registration is identified by (see `RegistrationIdentity`).
    var identity: RegistrationIdentity { RegistrationIdentity(locator: locator, parameters: parameterTypes) }

    /// Whether an injection with `arguments` matches the parameters this registration takes.
    @inline(__always)
    func accepts(_ arguments: InjectionArguments) -> Bool {
        (parameters?.signature ?? InjectionArguments.noParameters) == arguments.signature
    }

    /// Whether `other` declares the same dependency as this record: a builder's re-run of the
    /// same line, whose entry (and stored instances) can be kept with this record.
    func declaresSameDependency(as other: RegistrationRecord) -> Bool {
        self === other
            || (origin == other.origin && producedType == other.producedType && locator == other.locator
                && scope == other.scope && eagerness == other.eagerness && parameterTypes == other.parameterTypes)
    }

    /// Whether `other` comes from the same line of a builder, whatever its captured values.
    func comesFromSameLine(as other: RegistrationRecord) -> Bool {
        origin.code == other.origin.code && producedType == other.producedType && locator == other.locator
            && scope == other.scope
    }

    /// An instance in stored form as a `D`, or nil when it is not one.
    @inline(__always)
    func cast<D>(_ instance: AnyObject, to type: D.Type) -> D? {
        if producedType.id == ObjectIdentifier(D.self) {
            return storesObjects
                ? unsafeBitCast(instance, to: D.self)
                : unsafeDowncast(instance, to: TypedBox<D>.self).value
        }
        return value(of: instance) as? D
    }

    /// An instance in stored form as a value of its own type.
    func value(of instance: AnyObject) -> Any {
        storesObjects ? instance : (instance as! InstanceBox).anyValue
    }

    /// The unqualified name of an instance's dynamic type.
    func typeName(of instance: AnyObject) -> String {
        String(describing: Swift.type(of: value(of: instance)))
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

/// The parameters of a registration that takes some.
final class RegistrationParameters: Sendable {
    let types: [TypeKey]
    /// Equal to the `signature` of the injection arguments the registration accepts.
    let signature: ObjectIdentifier

    init(types: [TypeKey], signature: ObjectIdentifier) {
        self.types = types
        self.signature = signature
    }
}

/// A registration's identity as a dictionary key: hashed by the precomputed identity hash,
/// so building an index copies a reference instead of the identity's payload.
struct IdentityKey: Hashable, @unchecked Sendable {
    let record: RegistrationRecord

    init(_ record: RegistrationRecord) { self.record = record }

    func hash(into hasher: inout Hasher) { hasher.combine(record.identityHash) }

    static func == (lhs: IdentityKey, rhs: IdentityKey) -> Bool {
        lhs.record === rhs.record
            || (lhs.record.identityHash == rhs.record.identityHash && lhs.record.identity == rhs.record.identity)
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

/// A value-type (or existential) instance in stored form.
@usableFromInline
class InstanceBox: @unchecked Sendable {
    var anyValue: Any { fatalError("abstract") }
    /// Whether the value's dynamic type is not the box's type (a value behind an existential).
    var holdsAnotherType: Bool { fatalError("abstract") }
}

@usableFromInline
final class TypedBox<T>: InstanceBox, @unchecked Sendable {
    let value: T

    @usableFromInline
    init(_ value: T) { self.value = value }

    override var anyValue: Any { value }

    override var holdsAnotherType: Bool { ObjectIdentifier(Swift.type(of: value as Any)) != ObjectIdentifier(T.self) }

    /// The underlying object when the value is a class instance behind an existential.
    var object: AnyObject? {
        Swift.type(of: value as Any) is AnyClass ? (value as AnyObject) : nil
    }
}
