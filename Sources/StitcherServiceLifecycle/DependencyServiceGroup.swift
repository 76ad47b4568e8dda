import Logging
import ServiceLifecycle
import Stitcher
import UnixSignals

/// Runs the services registered in a dependency graph in a swift-service-lifecycle
/// `ServiceGroup`, each started after every service it depends on and shut down before them.
///
/// A service is an ordinary registration (a singleton, injectable anywhere) whose type, or a
/// type it is injected as, conforms to `Service`. The order follows the graph: declared
/// dependencies (autowired initializers, `dependsOn(…)`) and those a factory injects while
/// the group builds the services; a cycle among services is a ``ServiceDependencyError``
/// thrown before any service starts. `ServiceGroup` starts the services in that order and,
/// on SIGTERM or SIGINT (by default), shuts them down gracefully in reverse order.
///
/// ```swift
/// DependencyGraph.activate(DependencyContainer {
///     Dependency(autowiring: DatabasePool.init).scope(.singleton)        // a Service
///     Dependency(autowiring: JobQueue.init).scope(.singleton)            // a Service using the pool
/// })
/// let app = Application(router: router)                                 // Hummingbird's, a Service
/// try await DependencyServiceGroup(followedBy: [app], logger: logger).run()
/// // starts DatabasePool, JobQueue, then the app; stops the app, JobQueue, then DatabasePool
/// ```
public struct DependencyServiceGroup: Service {
    /// The graph whose services run.
    public let graph: DependencyGraph.Context
    /// Services that are not registrations, started after the graph's (a server's HTTP
    /// application, which serves with them) and shut down before them.
    public let followedBy: [any Service]
    /// The signals that shut the group down gracefully.
    public let gracefulShutdownSignals: [UnixSignal]
    /// The logger of the `ServiceGroup`.
    public let logger: Logger

    /// A group of the services of `graph` (the current graph by default), then `followedBy`.
    public init(
        graph: DependencyGraph.Context = DependencyGraph.currentContext,
        followedBy: [any Service] = [],
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        logger: Logger
    ) {
        self.graph = graph
        self.followedBy = followedBy
        self.gracefulShutdownSignals = gracefulShutdownSignals
        self.logger = logger
    }

    /// One service of the graph, built, with the services it depends on.
    public struct GraphService: Sendable {
        /// The registration, as errors name it (`Type[DatabasePool]`).
        public let name: String
        /// The instance the graph holds.
        public let service: any Service
        /// The names of the services it depends on, directly or through other registrations.
        public let dependencies: [String]
    }

    /// The graph's services, built (or found) and in the order they start.
    ///
    /// - Throws: ``ServiceDependencyError`` for a cycle among services or a service that is
    ///   not a singleton, and what building a service throws.
    public func services() async throws -> [GraphService] {
        let ordered: [OrderedDependency]
        do {
            ordered = try await graph.buildInDependencyOrder { type in
                type is any Service.Type || type == (any Service).self
            }
        } catch let failure as DependencyOrderFailure {
            throw ServiceDependencyError(failure)
        }
        return ordered.map { dependency in
            GraphService(
                name: dependency.dependency.description, service: dependency.instance as! any Service,
                dependencies: dependency.dependencies.map(\.description))
        }
    }

    /// Builds the graph's services and runs them, then `followedBy`, in a `ServiceGroup`
    /// until they finish or a signal shuts the group down.
    public func run() async throws {
        let services = try await services()
        let configurations =
            services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0.service, serviceName: $0.name) }
            + followedBy.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: configurations, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
        try await group.run()
    }
}

/// Why a graph's services cannot run in dependency order.
///
/// ```swift
/// do {
///     try await DependencyServiceGroup(logger: logger).run()
/// } catch let error as ServiceDependencyError {
///     print(error)   // "Services depend on each other in a cycle: … To fix this, …"
/// }
/// ```
public struct ServiceDependencyError: Error, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// Services depend on each other in a cycle (the first repeated at the end).
        case cycle([String])
        /// A service registration keeps no single instance: its scope, or it takes parameters.
        case notASingleton(service: String, scope: String, takesParameters: Bool)
    }

    /// What is wrong.
    public let reason: Reason

    init(_ failure: DependencyOrderFailure) {
        switch failure {
        case .cycle(let path):
            reason = .cycle(path.map(\.description))
        case .notOneInstance(let dependency, let scope, let takesParameters):
            reason = .notASingleton(service: dependency.description, scope: scope.description, takesParameters: takesParameters)
        }
    }

    public var description: String {
        switch reason {
        case .cycle(let path):
            "Services depend on each other in a cycle: \(path.joined(separator: " -> ")); none can start first. "
                + "To fix this, break the cycle: move what they share into a registration that is not a Service, "
                + "or have one of them inject the other when first used instead of when built."
        case .notASingleton(let service, let scope, let takesParameters):
            "The service \(service) \(takesParameters ? "takes parameters" : "is \(scope)"): a service group runs one "
                + "instance of each service, the one injected elsewhere. To fix this, register it "
                + "`.scope(.singleton)`\(takesParameters ? " without parameters" : "")."
        }
    }
}
