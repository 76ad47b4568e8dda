extension DependencyEnvironment {
    /// A test of the ``DependencyEnvironment``, for ``Dependency/when(_:)`` and
    /// ``DependencyGroup/when(_:)``.
    ///
    /// Combine conditions with `!`, `&&` and `||`:
    ///
    /// ```swift
    /// Dependency { StubPayments() as any Payments }.when(.runningTests || .argument("-stub-payments"))
    /// Dependency { CrashReporter() }.when(!.debugBuild)
    /// ```
    public struct Condition: Sendable {
        let holds: @Sendable (DependencyEnvironment) -> Bool

        /// A condition that `test` decides.
        ///
        /// ```swift
        /// Dependency { Region.eu }.when(.custom { $0.variables["REGION"] == "eu" })
        /// ```
        public static func custom(_ test: @escaping @Sendable (DependencyEnvironment) -> Bool) -> Condition {
            Condition(holds: test)
        }

        /// The process runs tests.
        public static var runningTests: Condition { Condition { $0.isRunningTests } }

        /// The process renders Xcode previews.
        public static var runningForPreviews: Condition { Condition { $0.isRunningForPreviews } }

        /// A debug build (see `DependencyEnvironment.isDebugBuild`).
        public static var debugBuild: Condition { Condition { $0.isDebugBuild } }

        /// The process was launched with `argument`.
        public static func argument(_ argument: String) -> Condition {
            Condition { $0.arguments.dropFirst().contains(argument) }
        }

        /// The environment variable `name` is set, to `value` when one is given.
        public static func variable(_ name: String, equals value: String? = nil) -> Condition {
            Condition { environment in
                guard let actual = environment.variables[name] else { return false }
                return value.map { $0 == actual } ?? true
            }
        }

        /// Whether the condition holds in the current environment
        /// (`DependencyEnvironment.current`).
        public var holdsNow: Bool { holds(DependencyEnvironment.current) }

        /// The opposite condition.
        public static prefix func ! (condition: Condition) -> Condition {
            Condition { !condition.holds($0) }
        }

        /// Both conditions.
        public static func && (lhs: Condition, rhs: Condition) -> Condition {
            Condition { lhs.holds($0) && rhs.holds($0) }
        }

        /// Either condition.
        public static func || (lhs: Condition, rhs: Condition) -> Condition {
            Condition { lhs.holds($0) || rhs.holds($0) }
        }
    }
}

extension DependencyGroup {
    /// This group's registrations take part only when `condition` holds in the current
    /// ``DependencyEnvironment``, as read when the container's builder runs (at its first
    /// activation).
    ///
    /// ```swift
    /// DependencyGroup {
    ///     Dependency { InMemoryStore() as any Store }.scope(.singleton)
    ///     Dependency { FixedClock() as any TimeSource }
    /// }
    /// .when(.runningTests || .runningForPreviews)
    /// ```
    public func when(_ condition: DependencyEnvironment.Condition) -> DependencyGroup {
        enabled(isEnabled && condition.holdsNow)
    }
}

extension DependencyRepresenting {
    /// This registration takes part only when `condition` holds in the current
    /// ``DependencyEnvironment``, as read when the container's builder runs (at its first
    /// activation). Write it last: it turns the registration into a group.
    ///
    /// ```swift
    /// Dependency { MockNetwork() as any Network }.scope(.singleton).when(.argument("-mock-network"))
    /// ```
    public func when(_ condition: DependencyEnvironment.Condition) -> DependencyGroup {
        DependencyGroup { self }.when(condition)
    }
}
