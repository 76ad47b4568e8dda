extension DependencyGraph {
    /// A read-only view of one active registration.
    ///
    /// Shown by ``DependencyGraph/validate(using:)`` and ``DependencyGraph/activeRegistrations``.
    ///
    /// ```swift
    /// let analytics = DependencyGraph.activeRegistrations.first { $0.isLocatedBy(type: Analytics.self) }
    /// print(analytics?.scope, analytics?.parameterTypeNames)
    /// ```
    public struct DependencyRegistrationProjection: Sendable, CustomStringConvertible {
        /// How the registration is located.
        public let locator: DependencyLocator
        /// How long its instances are kept.
        public let scope: DependencyScope
        /// When it is instantiated.
        public let eagerness: DependencyEagerness
        /// The unqualified name of the type its factory returns.
        public let typeName: String
        /// The unqualified names of the parameter types its factory takes, in order.
        public let parameterTypeNames: [String]
        /// The unqualified names of the types its factory is declared to inject, in order:
        /// an autowired initializer's parameters taken from the graph
        /// (`Dependency(autowiring:)`) and those declared with `dependsOn(…)`; empty
        /// for a factory closure that declares none, whose injections are known only when it runs.
        ///
        /// ```swift
        /// // Dependency(autowiring: UserService.init), with init(database:clock:)
        /// registration.declaredDependencyTypeNames   // ["Database", "Clock"]
        /// ```
        public let declaredDependencyTypeNames: [String]
        /// The name of the container that registers it (``DependencyContainer/name``).
        public let container: String
        /// The types that ``Decoration``s decorate this registration as, each with the name
        /// of the container listing the decoration, in the order they apply; empty when
        /// none does.
        ///
        /// ```swift
        /// registration.decorations   // [(type: "any APIClient", container: "Spy")]
        /// ```
        public let decorations: [(type: String, container: String)]

        init(_ record: RegistrationRecord, container: String, decorations: [(type: String, container: String)] = []) {
            self.container = container
            self.decorations = decorations
            locator = record.locator
            scope = record.scope
            eagerness = record.eagerness
            typeName = record.producedType.description
            parameterTypeNames = record.parameterTypes.map(\.description)
            declaredDependencyTypeNames = record.declaredDependencies.map(\.type.description)
        }

        /// Whether the registration is located by `name`.
        public func isLocatedBy(name: String) -> Bool { locator.isLocatedBy(name: name) }

        /// Whether the registration is located by `type`, as its own type or an alias.
        public func isLocatedBy<T>(type: T.Type) -> Bool { locator.isLocatedBy(type: type) }

        /// Whether the registration is located by the associated `value`.
        public func isLocatedBy<V: Hashable>(value: V) -> Bool { locator.isLocatedBy(value: value) }

        public var description: String {
            "\(locator) (\(parameterTypeNames.joined(separator: ", "))) -> \(typeName), \(scope)"
        }
    }

    /// A read-only view of every active registration, as ``DependencyGraph/validate(using:)``
    /// shows them.
    ///
    /// ```swift
    /// try DependencyGraph.validate { registrar in
    ///     try registrar.withFirstMatch(where: { $0.isLocatedBy(type: Analytics.self) }) { analytics in
    ///         guard analytics?.scope == .singleton else { throw ConfigurationError.analyticsMustBeASingleton }
    ///     }
    /// }
    /// ```
    public struct DependencyRegistrarProjection: Sendable {
        /// The registrations, in activation and registration order.
        public let registrations: [DependencyRegistrationProjection]

        /// The number of registrations.
        public var count: Int { registrations.count }

        /// Whether no registration is active.
        public var isEmpty: Bool { registrations.isEmpty }

        /// The registrations for which `predicate` is true, in order.
        public func matches(
            where predicate: (DependencyRegistrationProjection) -> Bool
        ) -> [DependencyRegistrationProjection] {
            registrations.filter(predicate)
        }

        /// Calls `body` with the registrations for which `predicate` is true (possibly none).
        public func withMatches(
            where predicate: (DependencyRegistrationProjection) -> Bool,
            perform body: ([DependencyRegistrationProjection]) throws -> Void
        ) rethrows {
            try body(matches(where: predicate))
        }

        /// Calls `body` with the first registration for which `predicate` is true, or nil.
        public func withFirstMatch(
            where predicate: (DependencyRegistrationProjection) -> Bool,
            perform body: (DependencyRegistrationProjection?) throws -> Void
        ) rethrows {
            try body(registrations.first(where: predicate))
        }
    }

    /// Calls `validator` once with every active registration; rethrows what it throws.
    ///
    /// Registrations replaced by a later one with the same identity are not included.
    ///
    /// ```swift
    /// try DependencyGraph.validate { registrar in
    ///     guard !registrar.isEmpty else { throw ConfigurationError.nothingActivated }
    ///     try registrar.withMatches(where: { $0.isLocatedBy(type: EventTracking.self) }) { trackers in
    ///         guard trackers.count >= 2 else { throw ConfigurationError.missingTrackers }
    ///     }
    /// }
    /// ```
    public static func validate(using validator: (DependencyRegistrarProjection) throws -> Void) rethrows {
        try validator(DependencyRegistrarProjection(registrations: activeRegistrations))
    }

    /// Every active registration, in activation and registration order.
    public static var activeRegistrations: [DependencyRegistrationProjection] {
        let graph = GraphContext.current
        let names = graph.containerNames()
        let snapshot = graph.snapshot()
        guard let decorations = snapshot.decorations else {
            return snapshot.entries.map { DependencyRegistrationProjection($0.record, container: names[$0.owner] ?? "") }
        }
        // A decoration's entry is shown on the registration it decorates, first of all.
        var applied: [ObjectIdentifier: [(type: String, container: String)]] = [:]
        for entry in snapshot.entries {
            guard let (decorated, key) = decorations.original(of: entry) else { continue }
            var original = decorated
            while let (earlier, _) = decorations.original(of: original) { original = earlier }
            applied[ObjectIdentifier(original), default: []].append((key.target.description, names[entry.owner] ?? ""))
        }
        return snapshot.entries.filter { decorations.original(of: $0) == nil }.map { entry in
            DependencyRegistrationProjection(
                entry.record, container: names[entry.owner] ?? "", decorations: applied[ObjectIdentifier(entry)] ?? [])
        }
    }
}
