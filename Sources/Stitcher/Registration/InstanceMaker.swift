/// How a registration's instances are made and kept, for its produced type.
///
/// One object per registration holds the factory and the type-specific steps around it,
/// instead of a closure (and a closure context) per step: fewer allocations per
/// registration, and one dynamic call per instantiation.
///
/// A class rather than a protocol: a call through a class reference does not retain it,
/// where a call through an existential does. `InstanceMaker<T>` overrides every member.
///
/// Makers are made by the inlined provider initializers, in the registering module: there
/// the maker's class metadata is cached per call site and whether `T` is a class is known
/// at compile time, so that registering instantiates no generic metadata.
@usableFromInline
class InstanceMaking: @unchecked Sendable {
    @usableFromInline init() {}
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

/// The `InstanceMaking` of registrations producing `T`: the type-specific steps around a
/// factory. One final subclass per kind of factory holds it in a `let`, so that calling it
/// borrows its context (a closure held in an enum payload is copied, and so retained and
/// released, on every call).
@usableFromInline
class InstanceMaker<T>: InstanceMaking, @unchecked Sendable {
    /// Whether `T` is a class, so that instances are stored as themselves.
    final let storesObjects: Bool
    /// Whether every `T` is `PostInstantiationAware`; otherwise only instances whose dynamic
    /// type differs from `T` (subclasses, values behind an existential) need a check.
    private let alwaysAware: Bool

    /// - Parameter alwaysAware: `T.self is PostInstantiationAware.Type`, evaluated by the
    ///   caller, where `T` is concrete.
    @usableFromInline
    init(storesObjects: Bool, alwaysAware: Bool) {
        self.storesObjects = storesObjects
        self.alwaysAware = alwaysAware
    }

    /// `didInstantiate()` for a new object, which is returned.
    @inline(__always)
    final func finish(_ object: __owned AnyObject) -> AnyObject {
        if alwaysAware || ObjectIdentifier(type(of: object)) != ObjectIdentifier(T.self) {
            (object as? PostInstantiationAware)?.didInstantiate()
        }
        return object
    }

    /// `didInstantiate()` for a new instance, which is returned in stored form.
    final func finish(_ value: __owned T) -> AnyObject {
        if storesObjects { return finish(unsafeBitCast(value, to: AnyObject.self)) }
        if alwaysAware || ObjectIdentifier(type(of: value as Any)) != ObjectIdentifier(T.self) {
            (value as Any as? PostInstantiationAware)?.didInstantiate()
        }
        return TypedBox(value)
    }

    override func makeAsync(_ arguments: InjectionArguments) async throws -> AnyObject {
        try make(arguments)
    }

    override final func weakTarget(_ instance: AnyObject) -> AnyObject? {
        storesObjects ? instance : (instance as? TypedBox<T>)?.object
    }

    override final func restore(_ object: AnyObject) -> AnyObject? {
        storesObjects ? object : (object as? T).map { TypedBox($0) }
    }
}

/// Makes instances of a class `T` with a factory returning them as objects.
@usableFromInline
final class ObjectMaker<T>: InstanceMaker<T>, @unchecked Sendable {
    let factory: (InjectionArguments) throws -> AnyObject

    @usableFromInline
    init(alwaysAware: Bool, _ factory: @escaping (InjectionArguments) throws -> AnyObject) {
        self.factory = factory
        super.init(storesObjects: true, alwaysAware: alwaysAware)
    }

    override func make(_ arguments: InjectionArguments) throws -> AnyObject { finish(try factory(arguments)) }
}

/// Makes instances of any `T`.
@usableFromInline
final class ValueMaker<T>: InstanceMaker<T>, @unchecked Sendable {
    let factory: (InjectionArguments) throws -> T

    @usableFromInline
    init(storesObjects: Bool, alwaysAware: Bool, _ factory: @escaping (InjectionArguments) throws -> T) {
        self.factory = factory
        super.init(storesObjects: storesObjects, alwaysAware: alwaysAware)
    }

    override func make(_ arguments: InjectionArguments) throws -> AnyObject { finish(try factory(arguments)) }
}

/// Makes instances with an asynchronous factory; a synchronous injection cannot run it.
final class AsyncMaker<T>: InstanceMaker<T>, @unchecked Sendable {
    let factory: (InjectionArguments) async throws -> T

    init(_ factory: @escaping (InjectionArguments) async throws -> T) {
        self.factory = factory
        super.init(storesObjects: T.self is AnyClass, alwaysAware: T.self is PostInstantiationAware.Type)
    }

    override var isAsync: Bool { true }
    override func make(_ arguments: InjectionArguments) throws -> AnyObject { throw InjectionError.unsupportedOperation }
    override func makeAsync(_ arguments: InjectionArguments) async throws -> AnyObject {
        finish(try await factory(arguments))
    }
}
