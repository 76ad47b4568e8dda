import Logging
import Stitcher

/// Logs what a dependency graph does with swift-log: every instantiation at trace level,
/// slow factories at warning.
///
/// Each instantiation is logged with the dependency, its scope, its factory's duration and
/// the dependency whose factory asked for it, as metadata; a factory that runs for at least
/// `slowFactoryThreshold` (its own injections included) is logged again at warning level,
/// which shows where start-up and request time go. Failures are logged at debug level (the
/// caller gets the error), failed teardowns at warning.
///
/// ```swift
/// var logger = Logger(label: "app.dependencies")
/// logger.logLevel = .trace
/// DependencyGraph.observer = DependencyLogger(logger: logger, slowFactoryThreshold: .milliseconds(20))
/// ```
public final class DependencyLogger: DependencyGraphObserver {
    /// The logger written to.
    public let logger: Logger
    /// How long a factory may run before its instantiation is logged at warning level.
    public let slowFactoryThreshold: Duration

    /// A logger of instantiations, warning about factories that run at least
    /// `slowFactoryThreshold`.
    public init(logger: Logger, slowFactoryThreshold: Duration = .milliseconds(50)) {
        self.logger = logger
        self.slowFactoryThreshold = slowFactoryThreshold
    }

    public func didCreate(_ event: DependencyGraphEvent.InstanceCreated) {
        let slow = event.duration >= slowFactoryThreshold
        guard slow || logger.logLevel <= .trace else { return }
        var metadata: Logger.Metadata = [
            "stitcher.dependency": "\(event.dependency)",
            "stitcher.scope": "\(event.scope)",
            "stitcher.duration_ms": "\(Self.milliseconds(event.duration))",
            "stitcher.container": "\(event.container)",
        ]
        if let parent = event.parent { metadata["stitcher.parent"] = "\(parent)" }
        if let scope = event.scopeID { metadata["stitcher.scope_id"] = "\(scope)" }
        logger.trace("Instantiated \(event.dependency)", metadata: metadata)
        if slow {
            logger.warning(
                "Slow factory: \(event.dependency) took \(Self.milliseconds(event.duration)) ms (threshold \(Self.milliseconds(slowFactoryThreshold)) ms)",
                metadata: metadata)
        }
    }

    public func didFail(_ event: DependencyGraphEvent.ResolutionFailed) {
        var metadata: Logger.Metadata = ["stitcher.dependency": "\(event.dependency)", "stitcher.error": "\(event.error)"]
        if let parent = event.parent { metadata["stitcher.parent"] = "\(parent)" }
        logger.debug("Injecting \(event.dependency) failed", metadata: metadata)
    }

    public func didOpenScope(_ event: DependencyGraphEvent.Scope) {
        logger.trace("Opened dependency scope \(event.id)", metadata: ["stitcher.scope_depth": "\(event.depth)"])
    }

    public func didCloseScope(_ event: DependencyGraphEvent.Scope) {
        logger.trace("Closed dependency scope \(event.id)", metadata: ["stitcher.instances": "\(event.instanceCount)"])
    }

    public func didTearDown(_ event: DependencyGraphEvent.Teardown) {
        guard let error = event.error else { return }
        var metadata: Logger.Metadata = ["stitcher.error": "\(error)"]
        if let scope = event.scopeID { metadata["stitcher.scope_id"] = "\(scope)" }
        logger.warning("Teardown of \(event.dependency) failed", metadata: metadata)
    }

    /// A duration in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return Double(microseconds) / 1_000
    }
}
