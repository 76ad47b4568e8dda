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
    public init<each Parameter: Hashable>(_ factory: @escaping @Sendable (repeat each Parameter) async throws -> T) {
        self.init(locator: .type(T.self), provider: .init(factory))
    }

    /// A dependency located by name, built by an asynchronous factory.
    public init(named name: String, _ factory: @escaping @Sendable () async throws -> T) {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by an associated value, built by an asynchronous factory.
    public init<Value: Hashable>(for value: Value, _ factory: @escaping @Sendable () async throws -> T) {
        self.init(locator: .value(value), provider: .init(factory))
    }
}
