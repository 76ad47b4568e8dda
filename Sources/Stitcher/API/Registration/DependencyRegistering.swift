/// Declares an app's default dependencies once, for the process-wide graph to activate by
/// itself.
///
/// Conform ``DependencyGraph`` to this protocol, in the app, and return the container of
/// the dependencies the app starts with. The process-wide graph activates it exactly once,
/// the first time it is used (an injection, or an activation or deactivation), before
/// anything else: so no `activate` call is needed, and containers activated later override
/// its registrations as any later container does. Racing first injections on several
/// threads wait for the one activation.
///
/// Isolated graphs (``DependencyGraph/Context/isolated()``, ``DependencyGraph/withIsolatedGraph(_:)``)
/// start empty and do not see it unless they activate it themselves.
///
/// (`@retroactive` tells the compiler that the conformance of a Stitcher type to a Stitcher
/// protocol is declared on purpose in the app.)
///
/// ```swift
/// extension DependencyGraph: @retroactive DependencyRegistering {
///     public static var defaultContainer: DependencyContainer {
///         DependencyContainer {
///             Dependency { RouterImpl() as Router }.scope(.singleton)
///             Dependency { AppConfiguration.load() }
///         }
///     }
/// }
///
/// // Anywhere, with no activation first:
/// let router: Router = try DependencyGraph.inject()
///
/// // In a test's isolated graph, when wanted:
/// DependencyGraph.activate(DependencyGraph.defaultContainer)
/// ```
public protocol DependencyRegistering {
    /// The container the process-wide graph activates on its first use.
    ///
    /// Read once for the process-wide graph, on the thread that uses it first.
    static var defaultContainer: DependencyContainer { get }
}
