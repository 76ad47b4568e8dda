extension Dependency {
    /// Locates the dependency by name instead of by type.
    ///
    /// ```swift
    /// Dependency { Service() }.named("service")
    /// ```
    @inlinable
    public func named(_ name: String) -> Dependency {
        with(locator: .name(name))
    }

    /// Locates the dependency by the raw value of a string-backed name, such as an enum case.
    @inlinable
    public func named<Name: RawRepresentable>(_ name: Name) -> Dependency where Name.RawValue == String {
        with(locator: .name(name))
    }

    /// Locates the dependency by the description of a value.
    @inlinable
    public func named(_ name: some CustomStringConvertible) -> Dependency {
        with(locator: .name(name))
    }

    /// Locates the dependency by an associated `Hashable` value instead of by type.
    ///
    /// ```swift
    /// Dependency { AvatarUploadService() }.associated(with: UploadLocation.avatar)
    /// ```
    @inlinable
    public func associated(with value: some Hashable) -> Dependency {
        with(locator: .value(value))
    }

    /// Makes the dependency injectable as a protocol it conforms to, as well as its own type.
    ///
    /// Chain it to add several protocols. An unrelated protocol is reported when the
    /// dependency is injected as it, with ``InjectionError/mismatchedDependencyType(_:expected:)``.
    ///
    /// ```swift
    /// Dependency { AccountRepository() }
    ///     .conforms(to: PrincipalAware.self)
    /// ```
    ///
    /// Inlined, so that the view presenting an instance as `Protocol` is compiled for it.
    @inlinable
    public func conforms<Protocol>(to type: Protocol.Type) -> Dependency {
        with(locator: locator.adding(alias: TypeKey(type), view: TypeList.view(as: Protocol.self)))
    }

    /// Makes the dependency injectable as a superclass, as well as its own type.
    ///
    /// ```swift
    /// Dependency { Service() }.inherits(from: ServiceSuperclass.self)
    /// ```
    public func inherits<Superclass>(from type: Superclass.Type) -> Dependency {
        with(locator: locator.adding(alias: TypeKey(type), view: TypeList.view(as: Superclass.self)))
    }

    /// Sets how long instances are kept.
    ///
    /// ```swift
    /// Dependency { Repository() }.scope(.singleton)
    /// ```
    @inlinable
    public func scope(_ scope: DependencyScope) -> Dependency {
        Dependency(locator: locator, scope: scope, eagerness: eagerness, provider: dependencyProvider)
    }

    /// Sets whether the dependency is instantiated when its container is activated.
    ///
    /// ```swift
    /// Dependency { EventTracker() }.eagerness(.eager)
    /// ```
    @inlinable
    public func eagerness(_ eagerness: DependencyEagerness) -> Dependency {
        Dependency(locator: locator, scope: scope, eagerness: eagerness, provider: dependencyProvider)
    }

    /// Inlined with the modifiers, so that registering copies the dependency with code
    /// specialized for `T` rather than through value witnesses.
    @inlinable
    func with(locator: DependencyLocator) -> Dependency {
        Dependency(locator: locator, scope: scope, eagerness: eagerness, provider: dependencyProvider)
    }

    /// Declares the types the factory injects, so that ``DependencyGraph/verify(_:)`` checks
    /// them, and ``DependencyGraph/export(_:_:)`` draws them, before anything is built.
    ///
    /// An autowired initializer declares its parameters by itself; a factory closure's
    /// injections are otherwise known only when it runs. Declared dependencies are checked
    /// as injected without parameters: an Optional may be missing, an Array takes every match.
    ///
    /// ```swift
    /// Dependency { CheckoutService(payments: try inject(), clock: try inject()) }
    ///     .dependsOn(PaymentGateway.self, Clock.self)
    /// ```
    public func dependsOn<each D>(_ types: repeat (each D).Type) -> Dependency {
        var declared: [DeclaredDependency] = []
        for type in repeat each types { declared.append(DeclaredDependency(type: TypeKey(type))) }
        return Dependency(locator: locator, scope: scope, eagerness: eagerness, provider: dependencyProvider.declaring(declared))
    }

    /// Declares a dependency the factory injects by name, as a `D` (see ``dependsOn(_:)``).
    ///
    /// ```swift
    /// Dependency { Reports(store: try inject(byName: "archive")) }
    ///     .dependsOn(named: "archive", as: Store.self)
    /// ```
    public func dependsOn<D>(named name: String, as type: D.Type) -> Dependency {
        let declared = [DeclaredDependency(name: name, type: TypeKey(type))]
        return Dependency(locator: locator, scope: scope, eagerness: eagerness, provider: dependencyProvider.declaring(declared))
    }
}
