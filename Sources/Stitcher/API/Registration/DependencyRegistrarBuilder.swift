/// The registrations a container or group builder produced, in order.
///
/// You don't create it yourself: it is what a ``DependencyRegistrarBuilder`` closure returns.
public struct DependencyRegistrar: Sendable {
    /// One registration is kept without an array: a `for` loop over thousands of
    /// registrations would otherwise allocate an array for each.
    private enum Storage: Sendable {
        case none
        case one(RegistrationRecord)
        case many([RegistrationRecord])
    }

    private let storage: Storage

    init(_ records: [RegistrationRecord] = []) {
        switch records.count {
        case 0: storage = .none
        case 1: storage = .one(records[0])
        default: storage = .many(records)
        }
    }

    @usableFromInline
    init(_ record: RegistrationRecord) { storage = .one(record) }

    /// The registrations of `parts`, in order. The parts are moved out of the array, which
    /// is left holding empty registrars: a `for` loop over thousands of registrations then
    /// costs no reference counting to join.
    init(joining parts: consuming [DependencyRegistrar]) {
        var records: [RegistrationRecord] = []
        records.reserveCapacity(parts.count)
        parts.withUnsafeMutableBufferPointer { parts in
            guard let base = parts.baseAddress else { return }
            for index in parts.indices {
                let part = (base + index).move()
                (base + index).initialize(to: DependencyRegistrar())
                switch part.storage {
                case .none: break
                case .one(let record): records.append(record)
                case .many(let many): records.append(contentsOf: many)
                }
            }
        }
        self.init(records)
    }

    var records: [RegistrationRecord] {
        switch storage {
        case .none: []
        case .one(let record): [record]
        case .many(let records): records
        }
    }
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
    @inlinable
    public static func buildExpression(_ representation: some DependencyRepresenting) -> DependencyRegistrar {
        DependencyRegistrar(RegistrationRecord(representation))
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
        // The autoclosure itself is the factory: a re-run of the builder then yields an equal
        // closure, and the dependency keeps its stored instances across invalidations.
        DependencyRegistrar(RegistrationRecord(Dependency<T>(expression)))
    }

    /// Statements such as `print(…)` register nothing.
    public static func buildExpression(_ expression: Void) -> DependencyRegistrar {
        DependencyRegistrar()
    }

    /// A block of one statement, such as the body of a `for` loop registering one
    /// dependency per element: passed on as it is, where the variadic form makes (and
    /// destroys) an array for every pass of the loop.
    @inlinable
    public static func buildBlock(_ component: DependencyRegistrar) -> DependencyRegistrar {
        component
    }

    public static func buildBlock(_ components: DependencyRegistrar...) -> DependencyRegistrar {
        components.count == 1 ? components[0] : DependencyRegistrar(joining: components)
    }

    public static func buildArray(_ components: consuming [DependencyRegistrar]) -> DependencyRegistrar {
        DependencyRegistrar(joining: components)
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
