import Observation

/// A set of dependency registrations that can be activated in the ``DependencyGraph``.
///
/// The builder closure runs when the container is first activated and again whenever the
/// container is invalidated, so conditional registrations follow the app's state.
/// Containers are reference types: the same container can be activated, merged into
/// others and invalidated through any reference to it.
///
/// ```swift
/// let container = DependencyContainer {
///     Dependency { LocalStorageService() }
///
///     if AppModel.shared.isPrincipalPresent {
///         Dependency { UserAccountService() }
///     }
///
///     DependencyGroup {
///         Dependency { AuthenticationService() }
///     }
///     .enabled(AppModel.shared.canUseAuthentication)
/// }
///
/// DependencyGraph.activate(container)
/// ```
public final class DependencyContainer: Identifiable, Equatable, @unchecked Sendable {
    /// Not `@Sendable`: builders read app state (models, publishers) that is rarely
    /// `Sendable`. The builder runs on the thread that activates or invalidates the container.
    private let builder: () -> DependencyRegistrar
    /// The containers merged into this one, kept strongly so their changes propagate.
    let parts: [DependencyContainer]
    private let state = Protected(State())

    private struct State {
        var registrar: DependencyRegistrar?
        /// Incremented by every invalidation, so that a builder run that an invalidation
        /// overtook is not kept.
        var version = 0
        var listeners: [ObjectIdentifier: Listener] = [:]
        var subscriptions: [any ManagedDependencyScopeReceipt] = []
    }

    /// Something told about the container's invalidations, removed by its owner.
    struct Listener {
        let notify: @Sendable (DependencyContainer) -> Void
    }

    /// The container's name, as errors, `verify()` reports, `export(_:)` pictures,
    /// `activeRegistrations` and the tracing observers show it: the one given, or the file
    /// and line that created the container.
    public let name: String

    /// Creates a container from the registrations its builder produces.
    ///
    /// - Parameters:
    ///   - name: How errors, reports, pictures and logs name the container; the file and
    ///     line that created it unless given.
    ///   - fileID: The file that creates the container; leave the default.
    ///   - line: The line that creates the container; leave the default.
    ///   - dependencies: The builder of the container's registrations, run when the
    ///     container is first activated and again after each invalidation.
    ///
    /// ```swift
    /// let payments = DependencyContainer(name: "Payments") {
    ///     Dependency { StripeGateway() as any PaymentGateway }.scope(.singleton)
    /// }
    /// ```
    public init(
        name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        @DependencyRegistrarBuilder dependencies: @escaping () -> DependencyRegistrar
    ) {
        self.name = name ?? "\(fileID):\(line)"
        self.builder = dependencies
        self.parts = []
    }

    /// Creates an empty container.
    ///
    /// - Parameters:
    ///   - fileID: The file that creates the container, which names it; leave the default.
    ///   - line: The line that creates the container; leave the default.
    public convenience init(fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(fileID: fileID, line: line, dependencies: { DependencyRegistrar() })
    }

    /// A container without registrations.
    public static var empty: DependencyContainer { DependencyContainer(name: "empty") {} }

    init(merging parts: [DependencyContainer]) {
        self.name = parts.map(\.name).joined(separator: " + ")
        self.parts = parts
        self.builder = { DependencyRegistrar(parts.flatMap { $0.registrations() }) }
        for part in parts {
            part.addListener(owner: self) { [weak self] _ in self?.invalidate() }
        }
    }

    deinit {
        for subscription in state.current.subscriptions { subscription.cancel() }
        for part in parts { part.removeListener(owner: self) }
    }

    public static func == (lhs: DependencyContainer, rhs: DependencyContainer) -> Bool {
        lhs === rhs
    }

    /// The container's current registrations, running the builder if it has not run since
    /// the last invalidation.
    ///
    /// The builder runs inside Observation tracking, so a change of any `@Observable`
    /// property it read invalidates the container.
    func registrations() -> [RegistrationRecord] {
        versionedRegistrations().records
    }

    /// The current registrations and the invalidation count they reflect.
    func versionedRegistrations() -> (records: [RegistrationRecord], version: Int) {
        while true {
            let (cached, version) = state.withLock { ($0.registrar, $0.version) }
            if let cached { return (cached.records, version) }
            // The builder runs outside the lock: it may read other containers or app state.
            let registrar = withObservationTracking(builder) { [weak self] in
                self?.invalidate()
            }
            let kept: DependencyRegistrar? = state.withLock { state in
                if let existing = state.registrar { return existing }
                guard state.version == version else { return nil }
                state.registrar = registrar
                return registrar
            }
            // Invalidated while the builder ran: its result may predate the change.
            if let kept { return (kept.records, version) }
        }
    }

    /// Drops the cached registrations and tells every listener (the graphs where the
    /// container is active and the containers it is merged into), which rebuild their
    /// index from the builder's next run.
    ///
    /// Observation and `objectWillChange` report a change before it is applied, so nothing
    /// runs the builder here: the graph re-runs it on the next lookup, or shortly after on
    /// a background queue if no lookup comes first.
    public func invalidate() {
        let listeners = state.withLock { state in
            state.registrar = nil
            state.version += 1
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.notify(self) }
    }

    /// Registrations from a fresh run of the builder, replacing the cached ones unless an
    /// invalidation overtook the run.
    func refreshedRegistrations() -> (records: [RegistrationRecord], version: Int) {
        state.withLock { $0.registrar = nil }
        return versionedRegistrations()
    }

    /// How many times the container was invalidated.
    var version: Int { state.withLock { $0.version } }

    func addListener(owner: AnyObject, _ notify: @escaping @Sendable (DependencyContainer) -> Void) {
        state.withLock { $0.listeners[ObjectIdentifier(owner)] = Listener(notify: notify) }
    }

    func removeListener(owner: AnyObject) {
        state.withLock { _ = $0.listeners.removeValue(forKey: ObjectIdentifier(owner)) }
    }

    /// Keeps a subscription alive for as long as the container.
    func retain(subscription: any ManagedDependencyScopeReceipt) {
        state.withLock { $0.subscriptions.append(subscription) }
    }
}
