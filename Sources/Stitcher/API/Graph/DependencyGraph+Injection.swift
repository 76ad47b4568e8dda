extension DependencyGraph {
    /// Injects the dependency registered for `type`.
    ///
    /// Besides registered types, `Optional` gives nil when nothing is registered, and `Array`
    /// or `Set` give every match (empty when none).
    ///
    /// ```swift
    /// let service: Service = try DependencyGraph.inject()
    /// let trackers = try DependencyGraph.inject(byType: [EventTracking].self)
    /// ```
    ///
    /// As in Stitcher 1.x, the result type chooses the overload: give the result a
    /// non-optional type (`let service: Service = …`), because without one
    /// `try DependencyGraph.inject(byType: Service.self)` is the optional form, which returns
    /// nil when nothing is registered.
    @inlinable @inline(__always)
    @_disfavoredOverload
    public static func inject<D>(byType type: D.Type = D.self) throws -> D {
        try inject(byType: D.self, arguments: .none)
    }

    /// Injects the dependency registered under `name`.
    @inlinable
    public static func inject<D>(byName name: String) throws -> D {
        try inject(byName: name, arguments: .none)
    }

    /// Injects the dependency associated with a `Hashable` value.
    @inlinable
    public static func inject<D, Value: Hashable>(byValue value: Value) throws -> D {
        try resolve(byValue: AnyHashable(value), arguments: .none)
    }

    /// Injects the dependency registered for `type`, instantiating it with `parameters`.
    ///
    /// Besides registered types, `Optional` gives nil when nothing is registered, and `Array`
    /// or `Set` give every match (empty when none). Parameters are matched by their static
    /// types.
    ///
    /// ```swift
    /// let repository: UserRepository = try DependencyGraph.inject(byType: UserRepository.self, parameters: context)
    /// let trackers: [EventTracking] = try DependencyGraph.inject()
    /// ```
    @inlinable
    @_disfavoredOverload
    public static func inject<D, each P>(
        byType type: D.Type = D.self,
        parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try inject(byType: D.self, arguments: $0) }
    }

    /// Injects the dependency registered for `type`, with parameters given without a label.
    ///
    /// ```swift
    /// let userRepository: UserRepository = try DependencyGraph.inject(byType: UserRepository.self, context)
    /// ```
    @inlinable
    @_disfavoredOverload
    public static func inject<D, First, each P>(
        byType type: D.Type = D.self,
        _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byType: D.self, arguments: $0) }
    }

    /// Injects the dependency registered under `name`.
    ///
    /// ```swift
    /// let accountService: AccountService = try DependencyGraph.inject(byName: "account-service")
    /// ```
    @inlinable
    public static func inject<D, each P>(byName name: String, parameters: repeat each P) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try inject(byName: name, arguments: $0) }
    }

    /// Injects the dependency registered under `name`, with unlabelled parameters.
    @inlinable
    public static func inject<D, First, each P>(
        byName name: String, _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byName: name, arguments: $0) }
    }

    /// Injects the dependency registered under the raw value of a string-backed name.
    @inlinable
    public static func inject<D, Name: RawRepresentable, each P>(
        byName name: Name, parameters: repeat each P
    ) throws -> D where Name.RawValue == String {
        try InjectionArguments.with(repeat each parameters) { try inject(byName: name.rawValue, arguments: $0) }
    }

    /// Injects the dependency registered under the raw value of a string-backed name, with
    /// unlabelled parameters.
    @inlinable
    public static func inject<D, Name: RawRepresentable, First, each P>(
        byName name: Name, _ first: First, _ parameters: repeat each P
    ) throws -> D where Name.RawValue == String {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byName: name.rawValue, arguments: $0) }
    }

    /// Injects the dependency registered under the description of `name`.
    @inlinable
    public static func inject<D, Name: CustomStringConvertible, each P>(
        byName name: Name, parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try inject(byName: name.description, arguments: $0) }
    }

    /// Injects the dependency registered under the description of `name`, with unlabelled
    /// parameters.
    @inlinable
    public static func inject<D, Name: CustomStringConvertible, First, each P>(
        byName name: Name, _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byName: name.description, arguments: $0) }
    }

    /// Injects the dependency associated with a `Hashable` value.
    ///
    /// ```swift
    /// let uploads: ImageUploadService = try DependencyGraph.inject(byValue: UploadServices.images)
    /// ```
    @inlinable
    public static func inject<D, Value: Hashable, each P>(
        byValue value: Value, parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try resolve(byValue: AnyHashable(value), arguments: $0) }
    }

    /// Injects the dependency associated with a `Hashable` value, with unlabelled parameters.
    @inlinable
    public static func inject<D, Value: Hashable, First, each P>(
        byValue value: Value, _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try resolve(byValue: AnyHashable(value), arguments: $0) }
    }
}
