/// The parts of a registration that most registrations do without, kept apart so that
/// their records stay small: the closure that makes instances (but for a class's factory
/// without parameters, which the record calls itself), parameters, a boxed instance form, an
/// asynchronous factory, the factory's isolation, the dependencies it declares (an autowired
/// initializer's parameters), the provider of a `.managed` scope, and how a dependency
/// scope tears its instances down.
///
/// Made once by the provider; the record keeps the same object, or a copy with what it adds.
@usableFromInline
final class RegistrationExtras: @unchecked Sendable {
    /// The parameter types, in order; empty when the registration takes none.
    let parameterTypes: [TypeKey]
    /// Equal to the `signature` of the injection arguments the registration accepts.
    let signature: ObjectIdentifier
    /// The form of boxed instances, when `T` is not a class.
    let form: InstanceForm.Type?
    /// Runs the factory and returns the instance in stored form, when `holdsMake`; otherwise
    /// never called (the record calls its class factory). Not optional, so that a call
    /// borrows the closure's context instead of copying it out of an optional.
    let make: CapturedClassFactory.Make
    /// Runs the synchronous factory of a value type and writes its value, unboxed, into
    /// uninitialized memory for one `T`: how a transient value reaches the caller that asked
    /// for exactly `T` without a box (`GraphEngine.writeTransient`). `noValueWriter` for
    /// classes and once a decorator replaced the factory (`hasValueWriter` is false then,
    /// and the record keeps `PostInstantiationAware` types boxed).
    let writeValue: (InjectionArguments, UnsafeMutableRawPointer) throws -> Void
    /// The value writer's typed factory (see `ValueWriter.factory`).
    private let typedValueFactory: AnyObject?
    /// Runs an asynchronous factory and returns the instance in stored form.
    let makeAsync: ((InjectionArguments) async throws -> AnyObject)?
    /// The factory is isolated to the main actor and runs only there.
    let isMainActor: Bool
    /// `make` is the registration's factory.
    let holdsMake: Bool
    /// `writeValue` is a value writer's (see `ValueWriter`).
    let hasValueWriter: Bool
    /// The runtime stores the values written inline in an existential's buffer
    /// (`ValueWriter.isStoredInline`).
    let writesInlineValues: Bool
    /// What the factory injects, declared before it runs (an autowired initializer's
    /// parameters taken from the graph, `dependsOn(…)`), for checking a graph without
    /// building it.
    let declaredDependencies: [DeclaredDependency]
    /// How to tear down an instance of `T`, when `T` asks for it.
    let teardown: TeardownWitness?
    /// The provider of a `.managed(by:)` scope (other scopes follow from the lifetime).
    let managedScope: (any ManagedDependencyScopeProviding)?
    /// The identity of the factory the registration was declared with
    /// (`RegistrationRecord.origin`), when `holdsMake`. Only compared, never followed.
    let origin: ClosureIdentity

    /// The parts of extras, as a copy changes them.
    private struct Parts {
        var parameterTypes: [TypeKey] = []
        var signature = InjectionArguments.noParameters
        var form: InstanceForm.Type?
        var make: CapturedClassFactory.Make?
        var writer: (write: (InjectionArguments, UnsafeMutableRawPointer) throws -> Void, factory: AnyObject?, inline: Bool)?
        var makeAsync: ((InjectionArguments) async throws -> AnyObject)?
        var isMainActor = false
        var declaredDependencies: [DeclaredDependency] = []
        var teardown: TeardownWitness?
        var managedScope: (any ManagedDependencyScopeProviding)?
        var origin = ClosureIdentity.unknown
    }

    private init(_ parts: Parts) {
        parameterTypes = parts.parameterTypes
        signature = parts.signature
        form = parts.form
        // Not `??`, which is generic: the closures would be stored behind two thunks.
        if let make = parts.make { self.make = make } else { self.make = CapturedClassFactory.neverCalled }
        holdsMake = parts.make != nil
        if let writer = parts.writer { writeValue = writer.write } else { writeValue = Self.noValueWriter }
        hasValueWriter = parts.writer != nil
        writesInlineValues = parts.writer?.inline ?? false
        typedValueFactory = parts.writer?.factory
        makeAsync = parts.makeAsync
        isMainActor = parts.isMainActor
        declaredDependencies = parts.declaredDependencies
        teardown = parts.teardown
        managedScope = parts.managedScope
        origin = parts.origin
    }

    /// These extras' parts, for a copy.
    private var parts: Parts {
        Parts(
            parameterTypes: parameterTypes, signature: signature, form: form, make: holdsMake ? make : nil,
            writer: hasValueWriter ? (writeValue, typedValueFactory, writesInlineValues) : nil, makeAsync: makeAsync,
            isMainActor: isMainActor, declaredDependencies: declaredDependencies, teardown: teardown,
            managedScope: managedScope, origin: origin)
    }

    /// The writer's typed factory (a `ValueFactory<T>`), unretained: these extras hold it.
    var valueFactory: Unmanaged<AnyObject>? { typedValueFactory.map(Unmanaged.passUnretained) }

    /// The `writeValue` of a registration without a value writer, never called.
    private static func noValueWriter(_: InjectionArguments, _: UnsafeMutableRawPointer) throws {
        preconditionFailure("a value is written only by a registration that writes values")
    }

    /// The extras of a factory that `make` runs (any but a class's factory without
    /// parameters, see `CapturedClassFactory`), with the factory's identity.
    @usableFromInline
    static func of(
        parameterTypes: [TypeKey], signature: ObjectIdentifier, form: InstanceForm.Type?,
        writeValue: ValueWriter? = nil,
        makeAsync: ((InjectionArguments) async throws -> AnyObject)?, isMainActor: Bool,
        declaredDependencies: [TypeKey], origin: ClosureIdentity, make: @escaping CapturedClassFactory.Make
    ) -> RegistrationExtras {
        RegistrationExtras(
            Parts(
                parameterTypes: parameterTypes, signature: signature, form: form, make: make,
                writer: writeValue.map { ($0.write, $0.factory, $0.isStoredInline) }, makeAsync: makeAsync,
                isMainActor: isMainActor, declaredDependencies: declaredDependencies.map(DeclaredDependency.init(type:)),
                origin: origin))
    }

    /// `extras` (or none) with `declared` appended to its declared dependencies.
    static func declaring(_ declared: [DeclaredDependency], in extras: RegistrationExtras?) -> RegistrationExtras {
        var parts = extras?.parts ?? Parts()
        parts.declaredDependencies += declared
        return RegistrationExtras(parts)
    }

    /// `extras` (or empty extras) with its factories replaced by `make` and `makeAsync` (a
    /// decorator's, which keeps the identity `origin`), and without the value writer, which
    /// would bypass the synchronous factory's replacement.
    static func replacing(
        make: @escaping CapturedClassFactory.Make, makeAsync: ((InjectionArguments) async throws -> AnyObject)?,
        origin: ClosureIdentity, in extras: RegistrationExtras?
    ) -> RegistrationExtras {
        var parts = extras?.parts ?? Parts()
        parts.make = make
        parts.makeAsync = makeAsync
        parts.writer = nil
        parts.origin = origin
        return RegistrationExtras(parts)
    }

    /// `extras` (or none) with what the record adds: how a scope tears an instance down
    /// (`.scoped` registrations of a type that asks for it), a `.managed` scope's provider,
    /// and, for a record that does not call a class factory, the factory `make` with its
    /// identity `origin` unless the extras hold it already (a provider's extras do; a
    /// decoration's placeholder or a class factory wrapped in a closure has none).
    static func adding(
        teardown: TeardownWitness?, managedScope: (any ManagedDependencyScopeProviding)?,
        make: CapturedClassFactory.Make?, origin: ClosureIdentity, to extras: RegistrationExtras?
    ) -> RegistrationExtras? {
        let addsMake = make != nil && extras?.holdsMake != true
        guard teardown != nil || managedScope != nil || addsMake else { return extras }
        var parts = extras?.parts ?? Parts()
        if let teardown { parts.teardown = teardown }
        if let managedScope { parts.managedScope = managedScope }
        if addsMake {
            parts.make = make
            parts.origin = origin
        }
        return RegistrationExtras(parts)
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
    /// The factory itself, typed (a `ValueFactory<T>`): what an injection of exactly `T`
    /// calls in its own module (see `DependencyGraph.injectValue(byType:)`).
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
    /// it is `PostInstantiationAware` (see `UnawareTypes`). The value's dynamic type is read
    /// where its existential keeps it, once that place is verified
    /// (`ExistentialDynamicTypes`), so that a type known not to be skips the conformance
    /// check without asking the runtime; otherwise it is asked (`type(of:)` of a generic
    /// value bound to an existential would give the existential), and the place learnt.
    @inlinable
    static func notifyIfAware<T>(_ value: inout T) {
        // In place (`inout`): a copy of an existential holding an object counted a reference.
        if withUnsafeBytes(of: &value, { ExistentialDynamicTypes.isKnownUnaware($0, as: T.self) }) { return }
        let boxed = value as Any
        withUnsafeBytes(of: &value) { notifyChecking(boxed, $0, as: T.self) }
    }

    /// `notifyIfAware(_:)` asking the runtime for the dynamic type of `value`, whose bytes
    /// (as a `type`) are `bytes`; rare once the existential's place is verified.
    @usableFromInline
    static func notifyChecking(_ value: Any, _ bytes: UnsafeRawBufferPointer, as type: Any.Type) {
        ExistentialDynamicTypes.learn(bytes, from: value, as: type)
        // A value of exactly its registration's type was checked when it was registered.
        guard ObjectIdentifier(Swift.type(of: value)) != ObjectIdentifier(type) else { return }
        UnawareTypes.notifyIfAware(value)
    }

}
