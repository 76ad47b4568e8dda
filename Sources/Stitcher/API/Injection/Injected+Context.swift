extension Injected {
    /// Injects the property by its type from the graph of `context` rather than the current
    /// one, with optional parameters.
    ///
    /// The property holds the context: a graph made by `DependencyGraph.Context.isolated()`
    /// lives at least as long as the property.
    ///
    /// ```swift
    /// final class TenantReports {
    ///     @Injected var store: ReportStore
    ///     init(tenant: Tenant) { _store = Injected(in: tenant.dependencies) }
    /// }
    /// ```
    public init<each P>(
        in context: DependencyGraph.Context, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            key: .type(TypeKey(Value.self)), arguments: StoredArguments(repeat each parameters), in: context,
            file: file, line: line)
    }

    /// Injects the property by name from the graph of `context`, with optional parameters.
    public init<each P>(
        in context: DependencyGraph.Context, name: String, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .name(name), arguments: StoredArguments(repeat each parameters), in: context, file: file, line: line)
    }

    /// Injects the property by an associated value from the graph of `context`, with
    /// optional parameters.
    public init<V: Hashable, each P>(
        in context: DependencyGraph.Context, value: V, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            key: .value(AnyHashable(value)), arguments: StoredArguments(repeat each parameters), in: context,
            file: file, line: line)
    }
}

extension EagerInjected {
    /// Injects the property by its type from the graph of `context` rather than the current
    /// one, when its owner is initialized, with optional parameters.
    ///
    /// ```swift
    /// struct ReportJob {
    ///     @EagerInjected var store: ReportStore
    ///     init(graph: DependencyGraph.Context) { _store = EagerInjected(in: graph) }
    /// }
    /// ```
    public init<each P>(
        in context: DependencyGraph.Context, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            key: .type(TypeKey(Value.self)), arguments: StoredArguments(repeat each parameters), in: context,
            file: file, line: line)
    }

    /// Injects the property by name from the graph of `context`, with optional parameters.
    public init<each P>(
        in context: DependencyGraph.Context, name: String, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .name(name), arguments: StoredArguments(repeat each parameters), in: context, file: file, line: line)
    }

    /// Injects the property by an associated value from the graph of `context`, with
    /// optional parameters.
    public init<V: Hashable, each P>(
        in context: DependencyGraph.Context, value: V, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            key: .value(AnyHashable(value)), arguments: StoredArguments(repeat each parameters), in: context,
            file: file, line: line)
    }
}
