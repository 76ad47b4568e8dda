/// The parts of a registration that most registrations do without, kept apart so that
/// their records stay small: parameters, a boxed instance form, an asynchronous factory,
/// the factory's isolation, the dependencies it declares (an autowired initializer's
/// parameters), the provider of a `.managed` scope, and how a dependency scope tears its
/// instances down.
///
/// Made once by the provider; the record keeps the same object.
@usableFromInline
final class RegistrationExtras: @unchecked Sendable {
    /// The parameter types, in order; empty when the registration takes none.
    let parameterTypes: [TypeKey]
    /// Equal to the `signature` of the injection arguments the registration accepts.
    let signature: ObjectIdentifier
    /// The form of boxed instances, when `T` is not a class.
    let form: InstanceForm.Type?
    /// Runs the synchronous factory of a value type and writes its value, unboxed, into
    /// uninitialized memory for one `T`: how a transient value reaches the caller that asked
    /// for exactly `T` without a box (`GraphEngine.writeTransient`). `noValueWriter` for
    /// classes and once a decorator replaced the factory (`writer` is nil then, and the
    /// record keeps `PostInstantiationAware` types boxed). Not optional, so that a call
    /// borrows the closure's context instead of copying it out of an optional.
    let writeValue: (InjectionArguments, UnsafeMutableRawPointer) throws -> Void
    /// The writer `writeValue` comes from (nil when it is `noValueWriter`), kept for copies
    /// of these extras and read once by the record they make (`RegistrationRecord.Flags`).
    let writer: ValueWriter?
    /// The writer's typed factory (see `ValueWriter.factory`), unretained: the writer holds
    /// it, and reading it counts no reference.
    let valueFactory: Unmanaged<AnyObject>?
    /// Runs an asynchronous factory and returns the instance in stored form.
    let makeAsync: ((InjectionArguments) async throws -> AnyObject)?
    /// The factory is isolated to the main actor and runs only there.
    let isMainActor: Bool
    /// What the factory injects, declared before it runs (an autowired initializer's
    /// parameters taken from the graph, `dependsOn(…)`), for checking a graph without
    /// building it.
    let declaredDependencies: [DeclaredDependency]
    /// How to tear down an instance of `T`, when `T` asks for it.
    let teardown: TeardownWitness?
    /// The provider of a `.managed(by:)` scope (other scopes follow from the lifetime).
    let managedScope: (any ManagedDependencyScopeProviding)?
    /// The context of the factory the registration was declared with, 0 when it captures
    /// nothing: part of its identity (`RegistrationRecord.origin`), which its record keeps
    /// here unless it keeps the factory itself. Only compared, never followed.
    let originContext: UInt

    private init(
        parameterTypes: [TypeKey], signature: ObjectIdentifier, form: InstanceForm.Type?,
        writeValue: ValueWriter?,
        makeAsync: ((InjectionArguments) async throws -> AnyObject)?, isMainActor: Bool,
        declaredDependencies: [DeclaredDependency], teardown: TeardownWitness?,
        managedScope: (any ManagedDependencyScopeProviding)?, originContext: UInt
    ) {
        self.parameterTypes = parameterTypes
        self.signature = signature
        self.form = form
        // Not `??`, which is generic: the closure would be stored behind two thunks.
        if let writeValue { self.writeValue = writeValue.write } else { self.writeValue = Self.noValueWriter }
        self.writer = writeValue
        valueFactory = writeValue?.factory.map(Unmanaged.passUnretained)
        self.makeAsync = makeAsync
        self.isMainActor = isMainActor
        self.declaredDependencies = declaredDependencies
        self.teardown = teardown
        self.managedScope = managedScope
        self.originContext = originContext
    }

    /// The `writeValue` of a registration without a value writer, never called.
    private static func noValueWriter(_: InjectionArguments, _: UnsafeMutableRawPointer) throws {
        preconditionFailure("a value is written only by a registration that writes values")
    }

    /// The extras of a factory; nil when it needs none.
    @usableFromInline
    static func of(
        parameterTypes: [TypeKey], signature: ObjectIdentifier, form: InstanceForm.Type?,
        writeValue: ValueWriter? = nil,
        makeAsync: ((InjectionArguments) async throws -> AnyObject)?, isMainActor: Bool,
        declaredDependencies: [TypeKey], originContext: UInt
    ) -> RegistrationExtras? {
        guard !parameterTypes.isEmpty || form != nil || makeAsync != nil || isMainActor || !declaredDependencies.isEmpty
        else { return nil }
        return RegistrationExtras(
            parameterTypes: parameterTypes, signature: signature, form: form, writeValue: writeValue, makeAsync: makeAsync,
            isMainActor: isMainActor, declaredDependencies: declaredDependencies.map(DeclaredDependency.init(type:)),
            teardown: nil, managedScope: nil, originContext: originContext
        )
    }

    /// `extras` (or none) with `declared` appended to its declared dependencies.
    static func declaring(_ declared: [DeclaredDependency], in extras: RegistrationExtras?) -> RegistrationExtras {
        copy(of: extras, declaredDependencies: (extras?.declaredDependencies ?? []) + declared)
    }

    /// `extras` with its asynchronous factory replaced, and without the value writer, which
    /// would bypass the synchronous factory's replacement.
    static func replacing(
        makeAsync: ((InjectionArguments) async throws -> AnyObject)?, in extras: RegistrationExtras
    ) -> RegistrationExtras {
        RegistrationExtras(
            parameterTypes: extras.parameterTypes, signature: extras.signature, form: extras.form, writeValue: nil,
            makeAsync: makeAsync,
            isMainActor: extras.isMainActor, declaredDependencies: extras.declaredDependencies, teardown: extras.teardown,
            managedScope: extras.managedScope, originContext: extras.originContext
        )
    }

    /// `extras` (or none) with what the record adds: how a scope tears an instance down
    /// (`.scoped` registrations of a type that asks for it), a `.managed` scope's provider,
    /// and the declared factory's context when the record keeps it here (see `originContext`;
    /// 0 for one whose extras have it already or that keeps its factory).
    static func adding(
        teardown: TeardownWitness?, managedScope: (any ManagedDependencyScopeProviding)?, originContext: UInt,
        to extras: RegistrationExtras?
    ) -> RegistrationExtras? {
        let keepsContext = originContext != (extras?.originContext ?? 0)
        guard teardown != nil || managedScope != nil || keepsContext else { return extras }
        return copy(
            of: extras, teardown: teardown, managedScope: managedScope, originContext: keepsContext ? originContext : nil)
    }

    /// `extras` (or empty extras) with the given parts replaced: extras are immutable, and
    /// the provider and the record each add theirs after the fact.
    private static func copy(
        of extras: RegistrationExtras?, declaredDependencies: [DeclaredDependency]? = nil,
        teardown: TeardownWitness? = nil, managedScope: (any ManagedDependencyScopeProviding)? = nil,
        originContext: UInt? = nil
    ) -> RegistrationExtras {
        RegistrationExtras(
            parameterTypes: extras?.parameterTypes ?? [], signature: extras?.signature ?? InjectionArguments.noParameters,
            form: extras?.form, writeValue: extras?.writer, makeAsync: extras?.makeAsync, isMainActor: extras?.isMainActor ?? false,
            declaredDependencies: declaredDependencies ?? extras?.declaredDependencies ?? [],
            teardown: teardown ?? extras?.teardown, managedScope: managedScope ?? extras?.managedScope,
            originContext: originContext ?? extras?.originContext ?? 0
        )
    }
}

/// A dependency a factory declares it injects: located by its type, or by a name and
/// injected as a type; injected without parameters.
struct DeclaredDependency: Hashable, Sendable {
    let key: LookupKey
    let type: TypeKey

    init(type: TypeKey) {
        key = .type(type)
        self.type = type
    }

    init(name: String, type: TypeKey) {
        key = .name(name)
        self.type = type
    }
}

/// How a registration of a value type writes its factory's value, unboxed, into memory for
/// one (see `RegistrationExtras.writeValue`), with the type's layout as the registering
/// module was compiled with it, which `ValueLayout` checks the runtime's against.
///
/// (Declared `@usableFromInline` for the inlined provider initializers, which make it.)
@usableFromInline
struct ValueWriter: @unchecked Sendable {
    let write: (InjectionArguments, UnsafeMutableRawPointer) throws -> Void
    /// The factory itself, typed (a `ValueFactory<T>`), for a `T` whose values are all of
    /// exactly `T`: what an injection of exactly `T` calls in its own module (see
    /// `DependencyGraph.injectValue(byType:)`); nil for an existential `T`.
    let factory: AnyObject?
    /// Whether the runtime stores the values written inline in an existential's buffer
    /// (`ValueLayout`), asked once, when the writer is made.
    let isStoredInline: Bool

    /// A writer of `T`, made in the registering module, where `MemoryLayout<T>` is constant.
    @inlinable
    init<T>(
        of _: T.Type, factory: ValueFactory<T>?, _ write: @escaping (InjectionArguments, UnsafeMutableRawPointer) throws -> Void
    ) {
        self.init(
            type: T.self, size: MemoryLayout<T>.size, stride: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment,
            factory: factory, write)
    }

    @usableFromInline
    init(
        type: Any.Type, size: Int, stride: Int, alignment: Int, factory: AnyObject?,
        _ write: @escaping (InjectionArguments, UnsafeMutableRawPointer) throws -> Void
    ) {
        self.write = write
        self.factory = factory
        isStoredInline = ValueLayout.isStoredInline(type, size: size, stride: stride, alignment: alignment)
    }

    /// Whether a value of `type` may be of another type (`type` is an existential), which
    /// `notifyIfAware(_:)` must then ask about; asked once, when the provider is made.
    @usableFromInline
    static func notifiesInstances(of type: Any.Type) -> Bool { !MetadataKind.valuesAreExactly(type) }

    /// Calls `didInstantiate()` of a new value of another type than its registration's when
    /// it is `PostInstantiationAware` (see `UnawareTypes`). Its dynamic type is looked up
    /// first (`type(of:)` of a generic value bound to an existential would give the
    /// existential), so that a type known not to be skips the conformance check.
    @inlinable
    static func notifyIfAware<T>(_ value: T) {
        guard !isKnownUnaware(Swift.type(of: value as Any)) else { return }
        notifyChecking(value)
    }

    @usableFromInline
    static func isKnownUnaware(_ type: Any.Type) -> Bool { UnawareTypes.isKnownUnaware(type) }

    @usableFromInline
    static func notifyChecking(_ value: Any) { UnawareTypes.notifyIfAware(value) }

}
