/// One dependency registration: a factory, how the dependency is located, its scope and
/// its eagerness.
///
/// The factory may take any number of `Hashable` parameters, passed at injection. By default
/// a dependency is located by its type, and its scope is `.shared` for classes and
/// `.instance` for value types.
///
/// ```swift
/// DependencyContainer {
///     Dependency { Service() }
///
///     Dependency { cache in
///         RemoteRepository(cachedBy: cache)
///     }
///     .named("repository")
///     .scope(.singleton)
///
///     Dependency(conformingTo: ServiceProtocol.self) { Service() }
/// }
/// ```
public struct Dependency<T>: DependencyRepresenting, @unchecked Sendable {
    public let locator: DependencyLocator
    public let scope: DependencyScope
    public let eagerness: DependencyEagerness
    public let dependencyProvider: DependencyFactory.Provider<T>

    @inlinable
    init(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        provider: DependencyFactory.Provider<T>
    ) {
        self.locator = locator
        self.scope = scope
        self.eagerness = eagerness
        self.dependencyProvider = provider
    }

    @inlinable
    init(locator: DependencyLocator, provider: DependencyFactory.Provider<T>) {
        self.init(locator: locator, scope: .automatic(for: T.self), eagerness: .lazy, provider: provider)
    }

    /// A dependency located by its type.
    @inlinable
    public init<each Parameter>(
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .type(T.self), provider: .init(factory))
    }

    /// A dependency located by its type (the released 1.x spelling of the label).
    @available(*, deprecated, renamed: "init(_:)", message: "Use Dependency { … } instead.")
    @_disfavoredOverload
    @inlinable
    public init<each Parameter>(
        dependecy factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .type(T.self), provider: .init(factory))
    }

    /// A dependency located by name.
    @inlinable
    public init<each Parameter>(
        named name: String,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by the raw value of a string-backed name, such as an enum case.
    @inlinable
    public init<Name: RawRepresentable, each Parameter>(
        named name: Name,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) where Name.RawValue == String {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by the description of a value.
    @inlinable
    public init<Name: CustomStringConvertible, each Parameter>(
        named name: Name,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by its type and by a protocol it conforms to.
    @inlinable
    public init<Protocol, each Parameter>(
        conformingTo type: Protocol.Type,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .type(T.self, type), provider: .init(factory))
    }

    /// A dependency located by its type and by a superclass it inherits from.
    @inlinable
    public init<Superclass, each Parameter>(
        inheritingFrom type: Superclass.Type,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .type(T.self, type), provider: .init(factory))
    }

    /// A dependency located by an associated `Hashable` value.
    @inlinable
    public init<Value: Hashable, each Parameter>(
        for value: Value,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .value(value), provider: .init(factory))
    }
}
