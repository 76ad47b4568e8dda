/// The registrations a container or group builder produced, in order.
///
/// You don't create it yourself: it is what a ``DependencyRegistrarBuilder`` closure returns.
public struct DependencyRegistrar: Sendable {
    var records: [RegistrationRecord]

    init(_ records: [RegistrationRecord] = []) { self.records = records }
}

/// The result builder of ``DependencyContainer`` and ``DependencyGroup``.
///
/// It accepts ``Dependency``, ``DependencyGroup``, any ``DependencyRepresenting`` value,
/// other containers (whose current registrations are included), a bare expression such as
/// `SomeService()` (a type-located dependency whose expression is evaluated at
/// instantiation, not when the builder runs), `if`/`else`, `if let`, `switch`, `for … in`
/// and `if #available`.
///
/// ```swift
/// DependencyContainer {
///     SomeService()
///     if AppModel.shared.isPrincipalPresent {
///         Dependency { UserAccountService() }
///     }
///     for region in Region.allCases {
///         Dependency { RegionalCache(region) }.associated(with: region)
///     }
/// }
/// ```
@resultBuilder
public enum DependencyRegistrarBuilder {
    public static func buildExpression(_ representation: some DependencyRepresenting) -> DependencyRegistrar {
        DependencyRegistrar([RegistrationRecord(representation)])
    }

    public static func buildExpression(_ group: DependencyGroup) -> DependencyRegistrar {
        group.isEnabled ? group.registrar : DependencyRegistrar()
    }

    public static func buildExpression(_ container: DependencyContainer) -> DependencyRegistrar {
        DependencyRegistrar(container.registrations())
    }

    public static func buildExpression(_ registrar: DependencyRegistrar) -> DependencyRegistrar {
        registrar
    }

    /// A bare expression: a type-located dependency built by evaluating the expression.
    public static func buildExpression<T>(
        _ expression: @autoclosure @escaping @Sendable () -> T
    ) -> DependencyRegistrar {
        DependencyRegistrar([RegistrationRecord(Dependency<T> { expression() })])
    }

    /// Statements such as `print(…)` register nothing.
    public static func buildExpression(_ expression: Void) -> DependencyRegistrar {
        DependencyRegistrar()
    }

    public static func buildBlock(_ components: DependencyRegistrar...) -> DependencyRegistrar {
        DependencyRegistrar(components.flatMap(\.records))
    }

    public static func buildArray(_ components: [DependencyRegistrar]) -> DependencyRegistrar {
        DependencyRegistrar(components.flatMap(\.records))
    }

    public static func buildOptional(_ component: DependencyRegistrar?) -> DependencyRegistrar {
        component ?? DependencyRegistrar()
    }

    public static func buildEither(first component: DependencyRegistrar) -> DependencyRegistrar {
        component
    }

    public static func buildEither(second component: DependencyRegistrar) -> DependencyRegistrar {
        component
    }

    public static func buildLimitedAvailability(_ component: DependencyRegistrar) -> DependencyRegistrar {
        component
    }
}
