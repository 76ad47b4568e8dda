extension Dependency {
    /// A dependency with every characteristic given at once, as generated code writes it.
    ///
    /// ```swift
    /// Dependency<Service>(locator: .name("service"), scope: .singleton, eagerness: .lazy) { Service() }
    /// ```
    public init<each Parameter: Hashable>(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: locator, scope: scope, eagerness: eagerness, provider: .init(factory))
    }

    /// A dependency with every characteristic given at once and a factory without parameters.
    public init(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        _ factory: @escaping @Sendable () throws -> T
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
