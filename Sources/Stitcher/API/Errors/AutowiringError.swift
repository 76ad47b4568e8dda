import Foundation

/// An autowired initializer that could not be given its parameters.
///
/// Thrown when a dependency registered with `Dependency(autowiring:)` (or one of
/// its forms) is injected and one of its initializer's parameters cannot be injected from
/// the graph, naming the parameter by position and type and carrying the error injecting it
/// threw; or when a type listed in `parameters:` matches no parameter of the initializer.
/// An autowired dependency of an autowired dependency nests one error in the other, so that
/// the description reads as the path to the parameter that failed.
///
/// ```swift
/// do {
///     let service: UserService = try DependencyGraph.inject()
/// } catch let error as AutowiringError {
///     if case .uninjectable(let position, let type, _) = error.failure {
///         print(position, type)   // 2, "Database"
///     }
/// }
/// ```
public struct AutowiringError: Error, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public enum Failure: Sendable {
        /// The initializer's parameter at `position` (from 1), of type `type`, could not be
        /// injected: `underlying` is the error injecting it threw.
        case uninjectable(position: Int, type: String, underlying: any Error)
        /// A type listed in `parameters:` that no parameter of the initializer has.
        case unmatchedRuntimeParameter(type: String)
    }

    /// The type the initializer builds.
    public let dependency: String
    /// How many parameters the initializer takes.
    public let parameterCount: Int
    /// What went wrong.
    public let failure: Failure

    public var description: String {
        switch failure {
        case .uninjectable(let position, let type, let underlying):
            let fix: String
            switch underlying {
            case is AutowiringError:
                fix = "To fix this, fix that parameter's own dependency, described above."
            case InjectionError.missingDependency:
                fix =
                    "To fix this, register a \(type) in an active container, list \(type).self in `parameters:` "
                    + "to pass it when injecting, or make the parameter Optional so that it can be nil."
            case let error as LocalizedError where error.recoverySuggestion != nil:
                // A scope, cycle or ambiguity says best how to fix itself.
                fix = error.recoverySuggestion!
            default:
                fix = "To fix this, look at the error above, which the parameter's factory threw."
            }
            return "Could not autowire \(dependency): parameter \(position) of \(parameterCount) of its initializer, "
                + "of type \(type), could not be injected: \(underlying) \(fix)"
        case .unmatchedRuntimeParameter(let type):
            return "Could not autowire \(dependency): `parameters:` lists \(type), which no parameter of its "
                + "initializer (\(parameterCount) in all) left to take. To fix this, remove \(type).self from "
                + "`parameters:`, or list it once per parameter of that type."
        }
    }

    public var errorDescription: String? { description }
}
