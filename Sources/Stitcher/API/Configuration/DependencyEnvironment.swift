/// What the process is running as: tests, an Xcode preview, a debug build, with which
/// launch arguments and environment variables. Containers read it to register different
/// dependencies in each, without `#if`.
///
/// Detected once, at run time, on Linux and Apple platforms alike (`#if DEBUG` is not set by
/// SwiftPM builds of dependencies, and says nothing about tests). A test can override it for
/// the current task with `withEnvironment(_:operation:)`, which is also how a
/// test checks its app's other configurations.
///
/// Use it in a container's builder, or as a modifier on a registration or group:
///
/// ```swift
/// let app = DependencyContainer {
///     if DependencyEnvironment.isRunningTests {
///         Dependency { RecordingAnalytics() as any Analytics }
///     } else {
///         Dependency { LiveAnalytics() as any Analytics }
///     }
///     Dependency { SampleData() }.when(.runningForPreviews)
///     Dependency { VerboseLogger() }.when(.argument("-verbose"))
/// }
/// ```
///
/// A container's builder runs when the container is first activated (and again after
/// `invalidate()`), so the environment is read then, in the activating task.
public struct DependencyEnvironment: Sendable, Equatable, CustomStringConvertible {
    /// Whether the process runs tests (XCTest or Swift Testing, under `swift test` or Xcode).
    public var isRunningTests: Bool
    /// Whether the process renders Xcode previews (`XCODE_RUNNING_FOR_PREVIEWS=1`).
    public var isRunningForPreviews: Bool
    /// Whether Stitcher was built with assertions on, as a debug (`-Onone`) build is; SwiftPM
    /// builds a package's dependencies in the configuration of the package.
    public var isDebugBuild: Bool
    /// The process's launch arguments, the executable's path first.
    public var arguments: [String]
    /// The process's environment variables.
    public var variables: [String: String]

    /// An environment with the given properties, for tests and previews of other
    /// configurations.
    ///
    /// ```swift
    /// let production = DependencyEnvironment(isRunningTests: false, isDebugBuild: false)
    /// ```
    public init(
        isRunningTests: Bool = false, isRunningForPreviews: Bool = false, isDebugBuild: Bool = false,
        arguments: [String] = [], variables: [String: String] = [:]
    ) {
        self.isRunningTests = isRunningTests
        self.isRunningForPreviews = isRunningForPreviews
        self.isDebugBuild = isDebugBuild
        self.arguments = arguments
        self.variables = variables
    }

    /// The environment this process was started in, detected once.
    public static let detected: DependencyEnvironment = EnvironmentDetection.detect()

    /// The environment the current task sees: ``detected``, unless a caller overrode it with
    /// `withEnvironment(_:operation:)`.
    public static var current: DependencyEnvironment { overridden ?? detected }

    @TaskLocal static var overridden: DependencyEnvironment?

    /// Whether the current environment runs tests (see the instance property).
    public static var isRunningTests: Bool { current.isRunningTests }

    /// Whether the current environment renders Xcode previews (see the instance property).
    public static var isRunningForPreviews: Bool { current.isRunningForPreviews }

    /// Whether the current environment is a debug build (see the instance property).
    public static var isDebugBuild: Bool { current.isDebugBuild }

    /// Whether the process was launched with `argument` (`-UITests`, `--mock-network`).
    public static func hasArgument(_ argument: String) -> Bool { Condition.argument(argument).holdsNow }

    /// The value of the environment variable `name`, if set.
    public static func value(of name: String) -> String? { current.variables[name] }

    /// Runs `operation` with `environment` as the current environment of this task (and of the
    /// tasks it starts): containers activated inside see it.
    ///
    /// ```swift
    /// let report = DependencyEnvironment.withEnvironment(.init(isRunningTests: false)) {
    ///     DependencyGraph.withIsolatedGraph {
    ///         DependencyGraph.activate(app)   // registers what production registers
    ///         return try? DependencyGraph.verify()
    ///     }
    /// }
    /// ```
    @discardableResult
    public static func withEnvironment<R>(_ environment: DependencyEnvironment, operation: () throws -> R) rethrows -> R {
        try $overridden.withValue(environment, operation: operation)
    }

    /// Runs asynchronous `operation` with `environment` as the current environment of this
    /// task and of the tasks it starts.
    @discardableResult
    public static func withEnvironment<R>(
        _ environment: DependencyEnvironment, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $overridden.withValue(environment, operation: operation, isolation: isolation)
    }

    public var description: String {
        var traits: [String] = []
        if isRunningTests { traits.append("running tests") }
        if isRunningForPreviews { traits.append("running for previews") }
        traits.append(isDebugBuild ? "debug build" : "release build")
        return "DependencyEnvironment(\(traits.joined(separator: ", ")), \(arguments.count) arguments)"
    }
}
