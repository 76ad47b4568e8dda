// The result type picks the overload, as in Stitcher 1.x: the plain `-> D` forms are
// disfavoured, so that an optional result gets `-> D?` (nil when nothing is registered) even
// when the request names a non-optional type, and a collection result gets `-> C` (every
// match) rather than an optional collection.

extension DependencyGraph {
    /// Injects the dependency registered for `type`, or nil when nothing is registered for it.
    ///
    /// Chosen when the result is optional, also when `type` is not: every other failure
    /// (several candidates, a cycle, parameters of other types, a throwing factory) still
    /// throws. An optional collection is nil when nothing matches.
    ///
    /// ```swift
    /// let analytics: Analytics? = try DependencyGraph.inject(byType: Analytics.self)
    /// let trackers: [EventTracking]? = try DependencyGraph.inject(byType: [EventTracking].self)
    /// ```
    @inlinable
    public static func inject<D>(byType type: D.Type = D.self) throws -> D? {
        try injectIfPresent(byType: D.self, arguments: .none)
    }

    /// Injects the dependency registered for `type`, instantiated with `parameters`, or nil
    /// when nothing is registered for it (see the non-optional `inject(byType:)`).
    ///
    /// ```swift
    /// let repository: Repository? = try DependencyGraph.inject(byType: Repository.self, parameters: context)
    /// ```
    @inlinable
    public static func inject<D, each P>(
        byType type: D.Type = D.self,
        parameters: repeat each P
    ) throws -> D? {
        try InjectionArguments.with(repeat each parameters) { try injectIfPresent(byType: D.self, arguments: $0) }
    }

    /// Injects the dependency registered for `type` with unlabelled parameters, or nil when
    /// nothing is registered for it.
    @inlinable
    public static func inject<D, First, each P>(
        byType type: D.Type = D.self,
        _ first: First, _ parameters: repeat each P
    ) throws -> D? {
        try InjectionArguments.with(first, repeat each parameters) { try injectIfPresent(byType: D.self, arguments: $0) }
    }

    /// Injects every dependency matching the collection's element type (empty when none).
    ///
    /// Chosen for a collection result, so that `let all = try inject(byType: [P].self)` is an
    /// array, not an optional one.
    ///
    /// ```swift
    /// let trackers = try DependencyGraph.inject(byType: [EventTracking].self)
    /// ```
    @inlinable
    public static func inject<C: Collection>(byType type: C.Type = C.self) throws -> C {
        try inject(byType: C.self, arguments: .none)
    }

    /// Injects every dependency registered for the array's element type (empty when none).
    ///
    /// The array form of ``inject(byType:)-(C.Type)``, compiled for its element type: when
    /// each match answers as it would alone (the element is their type, a class they
    /// inherit from, or the protocol a singleton or transient conforms to), no instance is
    /// cast. When every match is a singleton (or a managed instance), the array is kept
    /// while the graph does not change, and later requests return it as it is.
    ///
    /// ```swift
    /// let trackers: [any EventTracking] = try DependencyGraph.inject()
    /// ```
    @inlinable
    public static func inject<Element>(byType type: [Element].Type = [Element].self) throws -> [Element] {
        let id = ObjectIdentifier(Element.self)
        // The same singletons as the last request's, in the same order: its array.
        if let kept = keptElements(ofElement: id).flatMap(ElementArrayBox<Element>.elements(in:)) { return kept }
        var all: [Element] = []
        let direct = try directObjects(
            ofElement: id, reserve: { all.reserveCapacity($0) }, { all.append(directValue($0, as: Element.self)) },
            keeping: { ElementArrayBox(all) })
        // Out of line: the general path is rare, and its code made the kept array's read slower.
        return direct ? all : try injectNonClassOutOfLine(byType: [Element].self, arguments: .none)
    }

    /// Injects every dependency matching the collection's element type that takes
    /// `parameters` (empty when none).
    @inlinable
    public static func inject<C: Collection, each P>(
        byType type: C.Type = C.self,
        parameters: repeat each P
    ) throws -> C {
        try InjectionArguments.with(repeat each parameters) { try inject(byType: C.self, arguments: $0) }
    }

    /// Injects every dependency matching the collection's element type, with unlabelled
    /// parameters.
    @inlinable
    public static func inject<C: Collection, First, each P>(
        byType type: C.Type = C.self,
        _ first: First, _ parameters: repeat each P
    ) throws -> C {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byType: C.self, arguments: $0) }
    }

    /// Resolves `D` when something is registered for it, trying the direct path first.
    @inlinable
    static func injectIfPresent<D>(byType type: D.Type, arguments: InjectionArguments) throws -> D? {
        if let object = try _directObject(ofType: ObjectIdentifier(D.self), arguments) {
            return directValue(object, as: D.self)
        }
        return try resolve(byType: D?.self, arguments: arguments)
    }

    /// Injects the dependency registered for `type`, awaiting an asynchronous factory, or nil
    /// when nothing is registered for it.
    ///
    /// ```swift
    /// let replica: Database? = try await DependencyGraph.injectAsync(byType: Database.self)
    /// ```
    public static func injectAsync<D, each P>(
        byType type: D.Type = D.self,
        parameters: repeat each P
    ) async throws -> D? {
        try await StoredArguments(repeat each parameters).withArguments {
            try await GraphContext.current.resolveAsyncIfPresent(type: TypeKey(D.self), as: D.self, $0)
        }
    }
}
