extension DependencyGraph {
    /// Injects the dependency registered for `type`, awaiting its factory if it is
    /// asynchronous.
    ///
    /// Dependencies with synchronous factories are injected as `inject(byType:)` does.
    ///
    /// ```swift
    /// let container = DependencyContainer {
    ///     Dependency { () async throws -> Database in try await Database.connect() }
    ///         .scope(.singleton)
    /// }
    /// let database: Database = try await DependencyGraph.injectAsync()
    /// ```
    @_disfavoredOverload
    public static func injectAsync<D, each P>(
        byType type: D.Type = D.self,
        parameters: repeat each P
    ) async throws -> D {
        try await StoredArguments(repeat each parameters).withArguments {
            try await GraphContext.current.resolveAsync(.type(TypeKey(D.self)), $0)
        }
    }

    /// Injects the dependency registered under `name`, awaiting its factory if it is
    /// asynchronous.
    ///
    /// ```swift
    /// let replica: Database = try await DependencyGraph.injectAsync(byName: "replica")
    /// ```
    public static func injectAsync<D, each P>(byName name: String, parameters: repeat each P) async throws -> D {
        try await StoredArguments(repeat each parameters).withArguments {
            try await GraphContext.current.resolveAsync(.name(name), $0)
        }
    }

    /// Injects the dependency associated with `value`, awaiting its factory if it is
    /// asynchronous.
    ///
    /// ```swift
    /// let taxes: TaxTable = try await DependencyGraph.injectAsync(byValue: Region.europe)
    /// ```
    public static func injectAsync<D, Value: Hashable, each P>(
        byValue value: Value, parameters: repeat each P
    ) async throws -> D {
        try await StoredArguments(repeat each parameters).withArguments {
            try await GraphContext.current.resolveAsync(.value(AnyHashable(value)), $0)
        }
    }

    /// Injects the dependency registered for `type` with unlabelled parameters, awaiting
    /// its factory if it is asynchronous.
    ///
    /// ```swift
    /// let session: Session = try await DependencyGraph.injectAsync(byType: Session.self, userID)
    /// ```
    public static func injectAsync<D, First, each P>(
        byType type: D.Type = D.self, _ first: First, _ parameters: repeat each P
    ) async throws -> D {
        try await StoredArguments(first, repeat each parameters).withArguments {
            try await GraphContext.current.resolveAsync(.type(TypeKey(D.self)), $0)
        }
    }

    /// Injects the dependency registered under `name` with unlabelled parameters, awaiting
    /// its factory if it is asynchronous.
    ///
    /// ```swift
    /// let feed: Feed = try await DependencyGraph.injectAsync(byName: "feed", userID)
    /// ```
    public static func injectAsync<D, First, each P>(
        byName name: String, _ first: First, _ parameters: repeat each P
    ) async throws -> D {
        try await StoredArguments(first, repeat each parameters).withArguments {
            try await GraphContext.current.resolveAsync(.name(name), $0)
        }
    }
}
