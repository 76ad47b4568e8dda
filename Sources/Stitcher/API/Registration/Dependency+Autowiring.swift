// Dependencies built by an initializer whose parameters the graph fills in ("autowiring"):
// `Dependency(autowiring: Service.init)`. Disfavoured, so that a trailing closure, which
// could fill the labelled parameter, still selects the plain `Dependency { … }` forms.

extension Dependency {
    /// A dependency built by `initializer`, each of whose parameters is injected from the
    /// graph by its type.
    ///
    /// Any number of parameters. An `Optional` parameter gets nil when nothing is registered
    /// for its wrapped type; an `Array` parameter gets every registration of its element.
    /// The parameter types are recorded as the registration's declared dependencies, so
    /// that a graph can be checked without building it. Every modifier applies (`.named`,
    /// `.conforms(to:)`, `.scope`, …). A parameter that cannot be injected throws an
    /// ``AutowiringError`` naming it.
    ///
    /// ```swift
    /// final class UserService {
    ///     init(database: Database, clock: any Clock, analytics: Analytics?) { … }
    /// }
    ///
    /// DependencyContainer {
    ///     Dependency(autowiring: UserService.init).scope(.singleton)
    /// }
    /// ```
    @inlinable @_disfavoredOverload
    public init<each Parameter>(autowiring initializer: @escaping @Sendable (repeat each Parameter) throws -> T) {
        self.init(locator: .type(T.self), provider: .init(autowiring: initializer))
    }

    /// A dependency built by `initializer` whose parameters of the types listed in
    /// `parameters` are taken from the injection's runtime parameters, the others injected
    /// from the graph by their types.
    ///
    /// Runtime parameters are matched to the initializer's parameters by type and order,
    /// wherever those stand: the first runtime parameter of a type goes to the first
    /// parameter of that type, the second to the second. Inject it with the runtime
    /// parameters in the order `parameters` lists them.
    ///
    /// ```swift
    /// final class ProfileViewModel {
    ///     init(repository: Repository, userID: UserID, logger: Logger) { … }
    /// }
    ///
    /// DependencyContainer {
    ///     Dependency(autowiring: ProfileViewModel.init, parameters: UserID.self)
    /// }
    /// let model: ProfileViewModel = try DependencyGraph.inject(UserID(7))
    /// ```
    @_disfavoredOverload
    public init<each Parameter, each Runtime>(
        autowiring initializer: @escaping @Sendable (repeat each Parameter) throws -> T,
        parameters: repeat (each Runtime).Type
    ) {
        self.init(locator: .type(T.self), provider: .init(autowiring: initializer, runtime: repeat (each Runtime).self))
    }

    /// A dependency built by an asynchronous `initializer`, each of whose parameters is
    /// injected from the graph by its type (awaiting asynchronous factories).
    ///
    /// Inject it with `try await DependencyGraph.injectAsync(…)`.
    ///
    /// ```swift
    /// Dependency(autowiring: DatabasePool.init).scope(.singleton)   // init(settings:) async throws
    /// let pool: DatabasePool = try await DependencyGraph.injectAsync()
    /// ```
    @_disfavoredOverload
    public init<each Parameter>(autowiring initializer: @escaping @Sendable (repeat each Parameter) async throws -> T) {
        self.init(locator: .type(T.self), provider: .init(autowiring: initializer))
    }

    /// `init(autowiring:parameters:)` for an asynchronous initializer.
    @_disfavoredOverload
    public init<each Parameter, each Runtime>(
        autowiring initializer: @escaping @Sendable (repeat each Parameter) async throws -> T,
        parameters: repeat (each Runtime).Type
    ) {
        self.init(locator: .type(T.self), provider: .init(autowiring: initializer, runtime: repeat (each Runtime).self))
    }
}

extension DependencyFactory.Provider {
    /// An autowired initializer's provider, taking no runtime parameters. Inlined, so that
    /// the caller's module compiles the closure for its types: each parameter is then
    /// injected as a direct `inject()` call would be, with no generic code run.
    @inlinable
    init<each Parameter>(autowiring initializer: @escaping @Sendable (repeat each Parameter) throws -> T) {
        var parameters: [TypeKey] = []
        repeat parameters.append(TypeKey((each Parameter).self))
        let count = parameters.count
        self.init(autowired: parameters, AutowiredInitializer(call: initializer)) {
            var position = 0
            return try initializer(repeat try Autowiring.inject((each Parameter).self, at: &position, of: count, in: T.self))
        }
    }

    /// An autowired initializer's provider whose `make` injects the parameters `types` and
    /// calls the initializer `origin`: the pack form above and the forms of one to eight
    /// parameters (`Dependency+AutowiringArities`) differ only in their `make`.
    @inlinable
    init<each Parameter>(
        autowired types: [TypeKey], _ origin: AutowiredInitializer<T, repeat each Parameter>,
        make: @escaping @Sendable () throws -> T
    ) {
        let storesObjects = T.self is AnyClass
        self.init(
            parameterTypes: [], signature: InjectionArguments.noParameters, origin: codeAddress(of: origin),
            storesObjects: storesObjects, form: storesObjects ? nil : BoxedForm<T>.self, declaredDependencies: types
        ) { _ in
            let instance = try make()
            return storesObjects ? unsafeBitCast(instance, to: AnyObject.self) : TypedBox(instance)
        }
    }

    /// An autowired initializer's provider, taking the runtime parameters `Runtime`.
    init<each Parameter, each Runtime>(
        autowiring initializer: @escaping @Sendable (repeat each Parameter) throws -> T,
        runtime _: repeat (each Runtime).Type
    ) {
        let (parameters, runtime) = Self.autowiredTypes(of: (repeat each Parameter).self, runtime: (repeat each Runtime).self)
        let storesObjects = T.self is AnyClass
        self.init(
            parameterTypes: runtime, signature: Self.signature(of: (repeat each Runtime).self, runtime),
            origin: codeAddress(of: AutowiredInitializer(call: initializer)), storesObjects: storesObjects,
            form: storesObjects ? nil : BoxedForm<T>.self,
            declaredDependencies: Autowiring.declaredDependencies(of: parameters, runtime: runtime)
        ) { arguments in
            var wiring = Autowiring(
                of: T.self, parameterCount: parameters.count, runtime: Self.values(arguments, as: (repeat each Runtime).self))
            let values = (repeat try wiring.next((each Parameter).self))
            try wiring.finish()
            let instance = try initializer(repeat each values)
            return storesObjects ? unsafeBitCast(instance, to: AnyObject.self) : TypedBox(instance)
        }
    }

    /// `init(autowiring:runtime:)` for an asynchronous initializer.
    init<each Parameter, each Runtime>(
        autowiring initializer: @escaping @Sendable (repeat each Parameter) async throws -> T,
        runtime _: repeat (each Runtime).Type
    ) {
        let (parameters, runtime) = Self.autowiredTypes(of: (repeat each Parameter).self, runtime: (repeat each Runtime).self)
        self.init(
            asynchronous: runtime, signature: Self.signature(of: (repeat each Runtime).self, runtime),
            origin: codeAddress(of: AsyncAutowiredInitializer(call: initializer)),
            declaredDependencies: Autowiring.declaredDependencies(of: parameters, runtime: runtime)
        ) { arguments in
            var wiring = Autowiring(
                of: T.self, parameterCount: parameters.count, runtime: Self.values(arguments, as: (repeat each Runtime).self))
            let values = (repeat try await wiring.nextAsync((each Parameter).self))
            try wiring.finish()
            return try await initializer(repeat each values)
        }
    }

    /// The types of an initializer's parameters and of the runtime parameters it takes.
    private static func autowiredTypes<each Parameter, each Runtime>(
        of _: (repeat each Parameter).Type, runtime _: (repeat each Runtime).Type
    ) -> (parameters: [TypeKey], runtime: [TypeKey]) {
        var parameters: [TypeKey] = []
        var runtime: [TypeKey] = []
        repeat parameters.append(TypeKey((each Parameter).self))
        repeat runtime.append(TypeKey((each Runtime).self))
        return (parameters, runtime)
    }

    /// The signature of injections passing runtime parameters of the types `Runtime`
    /// (`types`, which may be none).
    private static func signature<each Runtime>(of _: (repeat each Runtime).Type, _ types: [TypeKey]) -> ObjectIdentifier {
        types.isEmpty ? InjectionArguments.noParameters : ObjectIdentifier(ArgumentPack<repeat each Runtime>.self)
    }

    /// The runtime parameters `arguments` hold, with their types; the signature matched.
    private static func values<each Runtime>(
        _ arguments: InjectionArguments, as _: (repeat each Runtime).Type
    ) -> [(type: TypeKey, value: Any)] {
        if arguments.isEmpty { return [] }
        let values = arguments.load(as: (repeat each Runtime).self)
        var all: [(type: TypeKey, value: Any)] = []
        repeat all.append((TypeKey((each Runtime).self), each values))
        return all
    }
}

/// An autowired initializer, wrapped to be passed as a generic value (see `codeAddress`).
@usableFromInline
struct AutowiredInitializer<T, each Parameter> {
    @usableFromInline let call: @Sendable (repeat each Parameter) throws -> T

    @usableFromInline
    init(call: @escaping @Sendable (repeat each Parameter) throws -> T) { self.call = call }
}

/// An asynchronous autowired initializer, wrapped to be passed as a generic value.
struct AsyncAutowiredInitializer<T, each Parameter> {
    let call: @Sendable (repeat each Parameter) async throws -> T
}
