/// The type-erased form of a registration, as containers store it and the graph indexes it.
///
/// Instances are handled as `AnyObject` in their stored form: the object itself when the
/// produced type `T` is a class, a `TypedBox<T>` otherwise. Lookups of exactly `T` turn the
/// stored form back into a `T` without a dynamic cast.
@usableFromInline
final class RegistrationRecord: @unchecked Sendable {
    // Ordered so that the lifetime, the flags and the 32-bit hash fill the word the locator
    // ends in (its last byte tells its kind), and what few registrations need is in
    // `extras`: with the 16-byte object header, 72 bytes (an 80-byte chunk on glibc). The
    // scope is not stored: the lifetime tells it, but for a `.managed(by:)` provider, kept
    // in `extras`; the eagerness is a flag.
    let locator: DependencyLocator
    /// Where the graph keeps the instances, decided from `scope` (fills the padding before
    /// the hash, at no cost in size).
    let lifetime: InstanceLifetime
    private let flags: Flags
    /// A hash of `identity` cut to 32 bits (see `identityHash`).
    private let shortIdentityHash: Int32
    let producedType: TypeKey
    /// The factory the registration was declared with, when `Flags.callsClassFactory`: a
    /// class's factory without parameters kept as it is (`CapturedClassFactory`), which
    /// `make(_:)` calls borrowed from this `let`. Otherwise a function that is never called:
    /// `extras` holds the closure `make(_:)` calls, and the factory's identity.
    private let classFactory: ClassFactory<AnyObject>
    /// What a registration needs only when it does not call a class factory (it takes
    /// parameters, produces a value, has an asynchronous or main-actor factory, or is
    /// decorated), or has a `.managed(by:)` scope, a scope's teardown or declared
    /// dependencies; nil for most.
    private let extras: RegistrationExtras?

    private struct Flags: OptionSet {
        let rawValue: UInt16
        /// `T` is a class, so that instances are stored as themselves.
        static let storesObjects = Flags(rawValue: 1)
        /// Every `T` is `PostInstantiationAware` (see `finish(_:)`).
        static let alwaysAware = Flags(rawValue: 2)
        static let takesParameters = Flags(rawValue: 4)
        /// `T` is a value type whose values are all of exactly `T` (not an existential), so
        /// that a boxed instance's type is known without looking at it.
        static let boxesExactType = Flags(rawValue: 8)
        /// `writeValue(into:)` can make an instance (see `writesValues`).
        static let writesValues = Flags(rawValue: 16)
        /// It writes values the runtime keeps inline in an existential (see `writesInlineValues`).
        static let writesInlineValues = Flags(rawValue: 32)
        /// Its extras hold a teardown witness for `T` (see `ownTeardown`).
        static let hasOwnTeardown = Flags(rawValue: 64)
        /// `classFactory` is the registration's factory, which `make(_:)` calls.
        static let callsClassFactory = Flags(rawValue: 128)
        /// Instantiated when its container is activated (see `eagerness`).
        static let eager = Flags(rawValue: 256)
    }

    /// The record of a registration, made in the registering module (inlined there, so that
    /// reading the representation runs no generic code).
    @inlinable
    convenience init<R: DependencyRepresenting>(_ representation: R) {
        let provider = representation.dependencyProvider
        self.init(
            locator: representation.locator, scope: representation.scope, eagerness: representation.eagerness,
            producedType: TypeKey(R.T.self), originCode: provider.originCode, originContext: provider.originContext,
            storesObjects: provider.storesObjects, alwaysAware: provider.alwaysAware, extras: provider.extras,
            callsClassFactory: provider.callsClassFactory, make: provider.make
        )
    }

    @usableFromInline
    init(
        locator: DependencyLocator, scope: DependencyScope, eagerness: DependencyEagerness, producedType: TypeKey,
        originCode: UInt, originContext: UInt, storesObjects: Bool, alwaysAware: Bool, extras: RegistrationExtras?,
        callsClassFactory: Bool = false, make: @escaping CapturedClassFactory.Make
    ) {
        let parameterTypes = extras?.parameterTypes ?? []
        self.locator = locator
        self.lifetime = InstanceLifetime(scope)
        self.producedType = producedType
        self.shortIdentityHash = Int32(truncatingIfNeeded: Self.identityHash(of: locator, parameterTypes))
        var flags: Flags = eagerness == .eager ? .eager : []
        if storesObjects { flags.insert(.storesObjects) }
        if alwaysAware { flags.insert(.alwaysAware) }
        if !parameterTypes.isEmpty { flags.insert(.takesParameters) }
        if !storesObjects, MetadataKind.valuesAreExactly(producedType.type) { flags.insert(.boxesExactType) }
        if !storesObjects, !alwaysAware, let extras, extras.hasValueWriter {
            flags.insert(.writesValues)
            if extras.writesInlineValues { flags.insert(.writesInlineValues) }
        }
        // A conformance check costs a runtime lookup: only registrations whose instances a
        // scope may tear down pay it, once.
        let teardown = lifetime.needsOpenScope ? TeardownWitness.of(producedType.type) : nil
        if teardown != nil { flags.insert(.hasOwnTeardown) }
        if callsClassFactory {
            flags.insert(.callsClassFactory)
            classFactory = CapturedClassFactory.factory(disguisedAs: make)
        } else {
            classFactory = CapturedClassFactory.notKept
        }
        self.flags = flags
        var managedScope: (any ManagedDependencyScopeProviding)?
        if case .managed(let provider) = scope, lifetime == .published { managedScope = provider }
        self.extras = RegistrationExtras.adding(
            teardown: teardown, managedScope: managedScope, make: callsClassFactory ? nil : make,
            origin: ClosureIdentity(code: originCode, context: originContext), to: extras)
    }

    /// When instances are made: when first injected, or when the container is activated.
    var eagerness: DependencyEagerness { flags.contains(.eager) ? .eager : .lazy }

    /// The provider of a `.managed(by:)` scope, nil for every other scope.
    var managedScope: (any ManagedDependencyScopeProviding)? { extras?.managedScope }

    /// Whether `other` declares the same scope, compared without making either (a `.scoped`
    /// or `.managed` scope is an indirect enum case, allocated when made).
    func hasSameScope(as other: RegistrationRecord) -> Bool {
        lifetime == other.lifetime && managedScope === other.managedScope
    }

    /// How long instances live, as declared.
    var scope: DependencyScope {
        lifetime.rules.declaredScope(of: self)
    }

    /// A hash of `identity`, compared before the identities themselves when walking the
    /// resolution path or a table of registrations. 32 bits are enough to filter, and keep
    /// the record one size class smaller.
    @inline(__always)
    var identityHash: Int { Int(shortIdentityHash) }

    /// A hash of the identity (`RegistrationIdentity`) of a registration with `locator` and
    /// `parameters`: equal identities hash alike. Combined by hand, without making the
    /// identity: its synthesized hash, through the generic `Hashable` witnesses, cost twice
    /// as much, and every registration is hashed when its container is built.
    ///
    /// For a name, the name's `hashValue` alone, which the index files the name under
    /// (`NameTable.hash(of:)`): a name is hashed once. Registrations of one name that differ
    /// by their parameters then share a hash, and are told apart by the parameters.
    private static func identityHash(of locator: DependencyLocator, _ parameters: [TypeKey]) -> Int {
        var hasher = Hasher()
        switch locator.kind {
        case .name(let name): return name.hashValue
        case .type(let types): hasher.combine(types.head.id)
        case .value(let value): hasher.combine(value)
        }
        for parameter in parameters { hasher.combine(parameter.id) }
        return hasher.finalize()
    }

    /// Whether `T` is a class, so that instances are stored as themselves.
    @inline(__always)
    var storesObjects: Bool { flags.contains(.storesObjects) }

    /// Whether the registration takes parameters.
    @inline(__always)
    var takesParameters: Bool { flags.contains(.takesParameters) }

    /// The types of the parameters the registration takes, in order.
    var parameterTypes: [TypeKey] { extras?.parameterTypes ?? [] }

    /// Equal to the `signature` of the injection arguments the registration accepts.
    var signature: ObjectIdentifier { extras?.signature ?? InjectionArguments.noParameters }

    /// The factory closure's code address and context: tells a builder's re-run of the same
    /// line apart from a different factory registered under the same identity.
    ///
    /// Read from the factory itself when the record calls it; otherwise kept in `extras`
    /// with the closure `make(_:)` calls.
    var origin: ClosureIdentity {
        if flags.contains(.callsClassFactory) { return CapturedClassFactory.words(of: classFactory) }
        return extras.unsafelyUnwrapped.origin
    }

    /// What the factory is declared to inject (an autowired initializer's parameters taken
    /// from the graph, `dependsOn(…)`), in order; empty when it declares none.
    var declaredDependencies: [DeclaredDependency] { extras?.declaredDependencies ?? [] }

    /// Whether `writeValue(into:)` can make an instance: `T` is a value type or an
    /// existential that is not `PostInstantiationAware` (whose `didInstantiate()` `finish(_:)`
    /// calls on the boxed value), and nothing replaced the factory (see
    /// `RegistrationExtras.writeValue`; its writer notifies an existential's value as
    /// `finish(_:)` would).
    @inline(__always)
    var writesValues: Bool { flags.contains(.writesValues) }

    /// Whether it `writesValues` that the runtime keeps inline in an existential's buffer, so
    /// that one is presented as a protocol it conforms to by writing it into an existential
    /// made from a template (`ExistentialTemplates.presentValue`).
    @inline(__always)
    var writesInlineValues: Bool { flags.contains(.writesInlineValues) }

    /// Runs the factory of a registration without parameters that `writesValues`, and writes
    /// its value, unboxed, into `destination` (uninitialized memory for one `T`). The
    /// extras are used unretained (this record holds them), so that the call borrows the
    /// closure's context instead of retaining it.
    @inline(__always)
    func writeValue(into destination: UnsafeMutableRawPointer) throws {
        try Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { try $0.writeValue(.none, destination) }
    }

    /// The typed factory of a registration that `writesValues` of a type whose values are
    /// all of exactly that type (a `ValueFactory<T>`, see `ValueWriter.factory`), unretained
    /// (this record holds it); nil when it has none.
    @inline(__always)
    var valueFactory: Unmanaged<AnyObject>? {
        Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.valueFactory }
    }

    /// Whether the factory is asynchronous.
    var isAsync: Bool { extras?.makeAsync != nil }

    /// Whether the factory is isolated to the main actor (runs only there).
    var isMainActor: Bool { extras?.isMainActor ?? false }

    /// Whether the factory can run synchronously on the calling thread: it is synchronous,
    /// and isolated to the main actor only if called there.
    var runsSynchronouslyHere: Bool { !isAsync && (!isMainActor || isOnMainActor()) }

    /// Runs the factory and returns the instance in stored form, before `finish(_:)`; the
    /// caller has checked `accepts(_:)`.
    @inline(__always)
    func make(_ arguments: InjectionArguments) throws -> AnyObject {
        if flags.contains(.callsClassFactory) { return try classFactory.call() }
        // Unretained, as for `writeValue(into:)`: the call borrows the closure's context.
        return try Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { try $0.make(arguments) }
    }

    /// Whether `make(_:)` calls a class's factory kept as it is.
    var callsClassFactory: Bool { flags.contains(.callsClassFactory) }

    /// `make(_:)` from asynchronous code: runs an asynchronous factory, or the synchronous one.
    func makeAsync(_ arguments: InjectionArguments) async throws -> AnyObject {
        if let makeAsync = extras?.makeAsync { return try await makeAsync(arguments) }
        return try make(arguments)
    }

    /// What the registration is identified by (see `RegistrationIdentity`).
    var identity: RegistrationIdentity { RegistrationIdentity(locator: locator, parameters: parameterTypes) }

    /// Whether `other` takes the same parameter types, in order: read from the flags when
    /// neither takes any (most registrations), so that indexing a registration that replaces
    /// another makes no lists to compare.
    @inline(__always)
    func takesSameParameters(as other: RegistrationRecord) -> Bool {
        if !takesParameters && !other.takesParameters { return true }
        return parameterTypes == other.parameterTypes
    }

    /// Whether an injection with `arguments` matches the parameters this registration takes.
    @inline(__always)
    func accepts(_ arguments: InjectionArguments) -> Bool {
        (extras?.signature ?? InjectionArguments.noParameters) == arguments.signature
    }

    /// Whether `other` declares the same dependency as this record: a builder's re-run of the
    /// same line, whose entry (and stored instances) can be kept with this record.
    func declaresSameDependency(as other: RegistrationRecord) -> Bool {
        self === other
            || (origin == other.origin && producedType == other.producedType && locator == other.locator
                && hasSameScope(as: other) && eagerness == other.eagerness && takesSameParameters(as: other))
    }

    /// Whether `other` comes from the same line of a builder, whatever its captured values.
    func comesFromSameLine(as other: RegistrationRecord) -> Bool {
        origin.isKnown && origin.code == other.origin.code && producedType == other.producedType && locator == other.locator
            && hasSameScope(as: other)
    }

    /// Whether every `T` is `PostInstantiationAware` (see `finish(_:)`).
    @inline(__always)
    var isAlwaysAware: Bool { flags.contains(.alwaysAware) }

    /// The form of boxed instances, when `T` is not a class.
    var instanceForm: InstanceForm.Type? { extras?.form }

    /// Whether its extras hold a teardown witness for `T` (see `ownTeardown`).
    @inline(__always)
    var hasOwnTeardown: Bool { flags.contains(.hasOwnTeardown) }

    /// Whether every boxed instance is of exactly `T` (a value type's, not an existential's).
    @inline(__always)
    var boxesExactType: Bool { flags.contains(.boxesExactType) }

    /// The teardown witness of `T`, found when the record was made (`.scoped` registrations
    /// only); nil when `T` asks for none.
    var ownTeardown: TeardownWitness? { extras?.teardown }

    /// How the registration reads in diagnostics, e.g. `Type[Widget] (Int) -> Widget, singleton`.
    var summary: String {
        let parameters = parameterTypes.map(\.description).joined(separator: ", ")
        return "\(locator) (\(parameters)) -> \(producedType), \(scope)"
    }
}
