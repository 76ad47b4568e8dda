/// A group of registrations that can be enabled or disabled together.
///
/// ```swift
/// DependencyContainer {
///     DependencyGroup {
///         MotionDetectionService()
///         Dependency { GyroscopeCalibrator() }
///     }
///     .enabled(System.isGyroscopeSupported)
/// }
/// ```
public struct DependencyGroup: Sendable {
    let registrar: DependencyRegistrar
    let isEnabled: Bool

    /// Creates a group from the registrations its builder produces.
    public init(@DependencyRegistrarBuilder _ dependencies: () -> DependencyRegistrar) {
        self.registrar = dependencies()
        self.isEnabled = true
    }

    init(registrar: DependencyRegistrar, isEnabled: Bool) {
        self.registrar = registrar
        self.isEnabled = isEnabled
    }

    /// Includes the group's registrations only when `isEnabled` is true.
    public func enabled(_ isEnabled: Bool) -> DependencyGroup {
        DependencyGroup(registrar: registrar, isEnabled: isEnabled)
    }
}
