/// A read-only view of one active registration, as ``DependencyGraph/validate(using:)`` shows it.
///
/// ```swift
/// try DependencyGraph.validate { registration in
///     if registration.isLocatedBy(type: AnalyticsService.self), registration.scope != .singleton {
///         throw ConfigurationError.analyticsMustBeASingleton
///     }
/// }
/// ```
public struct DependencyRegistration: Sendable, CustomStringConvertible {
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

    init(_ record: RegistrationRecord) {
        locator = record.locator
        scope = record.scope
        eagerness = record.eagerness
        typeName = record.producedType.description
        parameterTypeNames = record.parameterTypes.map(\.description)
    }

    /// Whether the registration is located by `name`.
    public func isLocatedBy(name: String) -> Bool { locator.isLocatedBy(name: name) }

    /// Whether the registration is located by `type`, as its own type or an alias.
    public func isLocatedBy<T>(type: T.Type) -> Bool { locator.isLocatedBy(type: type) }

    /// Whether the registration is located by the associated `value`.
    public func isLocatedBy(value: some Hashable) -> Bool { locator.isLocatedBy(value: value) }

    public var description: String {
        "\(locator) (\(parameterTypeNames.joined(separator: ", "))) -> \(typeName), \(scope)"
    }
}

extension DependencyGraph {
    /// Calls `validator` with every active registration, in activation and registration
    /// order; rethrows the first error it throws.
    ///
    /// Registrations replaced by a later one with the same identity are not included.
    public static func validate(using validator: (DependencyRegistration) throws -> Void) rethrows {
        for entry in GraphContext.current.snapshot().entries {
            try validator(DependencyRegistration(entry.record))
        }
    }

    /// Every active registration, in activation and registration order.
    public static var activeRegistrations: [DependencyRegistration] {
        GraphContext.current.snapshot().entries.map { DependencyRegistration($0.record) }
    }
}
