// Dependencies whose factories are asynchronous. They are injected with
// `try await DependencyGraph.injectAsync(…)`; a synchronous injection of one throws
// `InjectionError.unsupportedOperation`.

extension Dependency {
    /// A dependency located by its type, built by an asynchronous factory.
    ///
    /// ```swift
    /// Dependency { () async throws -> Database in try await Database.connect() }
    /// ```
    public init(_ factory: @escaping @Sendable () async throws -> T) {
        self.init(locator: .type(T.self), provider: .init(factory))
    }

    /// A dependency located by its type, built by an asynchronous factory with parameters.
    ///
    /// ```swift
    /// Dependency { (userID: Int) async throws -> Session in try await Session.open(for: userID) }
    /// ```
    public init<each Parameter>(_ factory: @escaping @Sendable (repeat each Parameter) async throws -> T) {
        self.init(locator: .type(T.self), provider: .init(factory))
    }

    /// A dependency located by name, built by an asynchronous factory.
    ///
    /// ```swift
    /// Dependency(named: "replica") { () async throws -> Database in try await Database.connect(to: .replica) }
    /// ```
    public init(named name: String, _ factory: @escaping @Sendable () async throws -> T) {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by an associated value, built by an asynchronous factory.
    ///
    /// ```swift
    /// Dependency(for: Region.europe) { () async throws -> TaxTable in try await TaxTable.load(.europe) }
    /// ```
    public init<Value: Hashable>(for value: Value, _ factory: @escaping @Sendable () async throws -> T) {
        self.init(locator: .value(value), provider: .init(factory))
    }
}
