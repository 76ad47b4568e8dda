/// How a registration's instances are made and kept, for its produced type.
///
/// One object per registration holds the factory and the type-specific steps around it,
/// instead of a closure (and a closure context) per step: fewer allocations per
/// registration, and one dynamic call per instantiation.
///
/// A class rather than a protocol: a call through a class reference does not retain it,
/// where a call through an existential does. `InstanceMaker<T>` overrides every member.
class InstanceMaking: @unchecked Sendable {
    /// Whether the factory is asynchronous.
    var isAsync: Bool { false }
    /// Runs the factory and `didInstantiate()`, and returns the instance in stored form;
    /// the caller has checked that the arguments match the registration's signature.
    func make(_ arguments: InjectionArguments) throws -> AnyObject { preconditionFailure("overridden") }
    /// `make(_:)` for an asynchronous factory (or a synchronous one, called from async code).
    func makeAsync(_ arguments: InjectionArguments) async throws -> AnyObject { preconditionFailure("overridden") }
    /// The object a shared registration holds weakly for an instance in stored form; nil
    /// when the instance is a value, which cannot be shared.
    func weakTarget(_ instance: AnyObject) -> AnyObject? { preconditionFailure("overridden") }
    /// The stored form of an instance found alive through its weak reference.
    func restore(_ object: AnyObject) -> AnyObject? { preconditionFailure("overridden") }
}

/// The factory of a registration, as its provider holds it.
@usableFromInline
enum FactoryFunction<T>: @unchecked Sendable {
    /// Without parameters, for a class `T`: returns the instance as an object, with no
    /// generic code on the way.
    case object(() throws -> AnyObject)
    /// Without parameters: called directly.
    case plain(() throws -> T)
    /// With parameters, read from the injection's argument pack.
    case packed((InjectionArguments) throws -> T)
    case asynchronous((InjectionArguments) async throws -> T)
}

/// The `InstanceMaking` of registrations producing `T`.
final class InstanceMaker<T>: InstanceMaking, @unchecked Sendable {
    private let factory: FactoryFunction<T>
    /// Whether `T` is a class, so that instances are stored as themselves.
    private let storesObjects: Bool
    /// Whether every `T` is `PostInstantiationAware`; otherwise only instances whose dynamic
    /// type differs from `T` (subclasses, values behind an existential) need a check.
    private let alwaysAware: Bool

    init(_ factory: FactoryFunction<T>) {
        self.factory = factory
        storesObjects = T.self is AnyClass
        alwaysAware = T.self is PostInstantiationAware.Type
    }

    override var isAsync: Bool {
        if case .asynchronous = factory { return true }
        return false
    }

    override func make(_ arguments: InjectionArguments) throws -> AnyObject {
        switch factory {
        case .object(let factory): return finish(try factory())
        case .plain(let factory): return finish(try factory())
        case .packed(let factory): return finish(try factory(arguments))
        case .asynchronous: throw InjectionError.unsupportedOperation
        }
    }

    override func makeAsync(_ arguments: InjectionArguments) async throws -> AnyObject {
        if case .asynchronous(let factory) = factory { return finish(try await factory(arguments)) }
        return try make(arguments)
    }

    /// `didInstantiate()` for a new object, which is returned.
    private func finish(_ object: AnyObject) -> AnyObject {
        if alwaysAware || ObjectIdentifier(type(of: object)) != ObjectIdentifier(T.self) {
            (object as? PostInstantiationAware)?.didInstantiate()
        }
        return object
    }

    private func finish(_ value: T) -> AnyObject {
        if storesObjects { return finish(unsafeBitCast(value, to: AnyObject.self)) }
        if alwaysAware || ObjectIdentifier(type(of: value as Any)) != ObjectIdentifier(T.self) {
            (value as Any as? PostInstantiationAware)?.didInstantiate()
        }
        return TypedBox(value)
    }

    override func weakTarget(_ instance: AnyObject) -> AnyObject? {
        storesObjects ? instance : (instance as? TypedBox<T>)?.object
    }

    override func restore(_ object: AnyObject) -> AnyObject? {
        storesObjects ? object : (object as? T).map { TypedBox($0) }
    }
}
