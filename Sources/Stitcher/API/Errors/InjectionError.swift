import Foundation

/// An error thrown when a dependency cannot be injected.
///
/// Every case names what was asked for, in the shape `Type[Service]`, `Name[service]` or
/// `Value[avatar]`, and ``recoverySuggestion`` says how to fix it. Missing dependencies also
/// list the nearest registrations that do exist.
///
/// ```swift
/// do {
///     let service: Service = try DependencyGraph.inject()
/// } catch InjectionError.missingDependency(.type("Service")) {
///     // register `Service` in an active container
/// }
/// ```
public enum InjectionError: Error, CustomStringConvertible, LocalizedError {
    /// A factory threw an error that is not an `InjectionError`: wrapped once, where the
    /// factory ran, and passed unchanged through the factories injecting it.
    case unknown(any Error)
    /// The operation is not supported.
    case unsupportedOperation
    /// A registration was found, but its instance is not of the requested type.
    ///
    /// The first value is the instance's type, `expected` the requested one.
    case mismatchedDependencyType(String, expected: String)
    /// No registration matches the request.
    case missingDependency(DependencyContext)
    /// Several registrations match a request for a single value.
    case multipleDependencies(DependencyContext)
    /// Instantiating the dependency requires instantiating itself.
    case cyclicDependencyReference(DependencyBacktrace)
    /// A registration exists for the locator, but it takes other parameters.
    case invalidDependencyParameters(DependencyContext, DependencyParameterContext, parameters: [String])

    /// How the parameters passed to an injection differ from those a registration takes.
    public enum DependencyParameterContext: Hashable, Sendable, CustomStringConvertible {
        /// `count` parameters were passed; the registration takes `expected`.
        case mismatchedCount(Int, expected: Int)
        /// The parameter at `position` (zero-based) has the wrong type.
        case mismatchedType(String, expected: String, position: Int)

        public var description: String {
            switch self {
            case .mismatchedCount(let count, let expected):
                "\(count) parameter\(count == 1 ? "" : "s") given, \(expected) expected"
            case .mismatchedType(let type, let expected, let position):
                "parameter \(position + 1) is '\(type)', expected '\(expected)'"
            }
        }
    }

    /// The chain of instantiations that led back to a dependency already being instantiated.
    public struct DependencyBacktrace: Hashable, Sendable, CustomStringConvertible {
        /// The dependencies in instantiation order; the last one repeats an earlier one.
        public let entries: [DependencyContext]

        /// The number of entries, the repeated one included.
        public var depth: Int { entries.count }

        /// A backtrace of `entries`, outermost first, the repeated dependency last.
        public init(entries: [DependencyContext]) { self.entries = entries }

        /// The dependencies in instantiation order, as Stitcher 1.0 named ``entries``.
        public var cycle: [DependencyContext] { entries }

        public var description: String {
            entries.map(\.description).joined(separator: " -> ")
        }
    }
}

/// The chain of instantiations that led back to a dependency, under its Stitcher 1.0 name.
@available(*, deprecated, renamed: "InjectionError.DependencyBacktrace")
public typealias DependencyCycleInstantationBacktrace = InjectionError.DependencyBacktrace

extension InjectionError: Equatable {
    /// Errors are equal when their cases and values are; underlying errors of `.unknown`
    /// are compared by their full description.
    public static func == (lhs: InjectionError, rhs: InjectionError) -> Bool {
        switch (lhs, rhs) {
        case (.unknown(let a), .unknown(let b)):
            String(reflecting: a) == String(reflecting: b)
        case (.unsupportedOperation, .unsupportedOperation):
            true
        case (.mismatchedDependencyType(let a, expected: let x), .mismatchedDependencyType(let b, expected: let y)):
            a == b && x == y
        case (.missingDependency(let a), .missingDependency(let b)), (.multipleDependencies(let a), .multipleDependencies(let b)):
            a == b
        case (.cyclicDependencyReference(let a), .cyclicDependencyReference(let b)):
            a == b
        case (.invalidDependencyParameters(let a, let x, parameters: let p), .invalidDependencyParameters(let b, let y, parameters: let q)):
            a == b && x == y && p == q
        default:
            false
        }
    }
}

extension InjectionError {
    /// `error` as an injection error: itself when it is one, otherwise wrapped in
    /// ``unknown(_:)``, as Stitcher 1.x reports a factory's own errors.
    ///
    /// Applied where factories are called, so an error thrown deep in a graph is wrapped once
    /// and passes through every outer factory unchanged.
    /// ``ResolutionTooDeep``, ``MainActorIsolationError``, ``DependencyScopeError`` and
    /// ``AutowiringError`` also pass unchanged: they are the engine's errors, not the
    /// factory's.
    static func wrapping(_ error: any Error) -> any Error {
        if error is InjectionError || error is ResolutionTooDeep || error is MainActorIsolationError
            || error is DependencyScopeError || error is AutowiringError
        {
            return error
        }
        return InjectionError.unknown(error)
    }
}
