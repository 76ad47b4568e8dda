extension Dependency {
    /// A dependency with every characteristic given at once, as generated code writes it.
    ///
    /// ```swift
    /// Dependency<Service>(locator: .name("service"), scope: .singleton, eagerness: .lazy) { Service() }
    /// ```
    @inlinable
    public init<each Parameter>(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: locator, scope: scope, eagerness: eagerness, provider: .init(factory))
    }

    /// A dependency with every characteristic given at once and a factory without parameters.
    @inlinable
    public init(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        _ factory: @escaping @Sendable () throws -> T
    ) {
        self.init(locator: locator, scope: scope, eagerness: eagerness, provider: .init(factory))
    }

    /// A dependency with every characteristic given at once and an asynchronous factory, as
    /// `@Registerable` writes it for a type whose initializer is `async`.
    ///
    /// It is injected with `try await DependencyGraph.injectAsync(…)`.
    ///
    /// ```swift
    /// Dependency<Database>(locator: .type(Database.self), scope: .singleton, eagerness: .lazy) {
    ///     () async throws -> Database in try await Database(url: "db://main")
    /// }
    /// ```
    public init(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        _ factory: @escaping @Sendable () async throws -> T
    ) {
        self.init(locator: locator, scope: scope, eagerness: eagerness, provider: .init(factory))
    }

    /// `init(locator:scope:eagerness:_:)` with an asynchronous factory taking parameters.
    ///
    /// ```swift
    /// Dependency<Session>(locator: .type(Session.self), scope: .instance, eagerness: .lazy) {
    ///     (userID: Int) async throws -> Session in try await Session(userID: userID)
    /// }
    /// ```
    public init<each Parameter>(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        _ factory: @escaping @Sendable (repeat each Parameter) async throws -> T
    ) {
        self.init(locator: locator, scope: scope, eagerness: eagerness, provider: .init(factory))
    }
}

extension DependencyLocator {
    /// The name this locator finds dependencies by, if it is a name locator.
    public var locatedName: String? {
        if case .name(let name) = kind { return name }
        return nil
    }

    /// The value this locator finds dependencies by, if it is a value locator.
    public var locatedValue: AnyHashable? {
        if case .value(let value) = kind { return value }
        return nil
    }
}
