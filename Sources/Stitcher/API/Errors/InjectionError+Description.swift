import Foundation

extension InjectionError {
    public var description: String {
        switch self {
        case .unknown(let error):
            return "Dependency instantiation failed with error: \(error)."
        case .unsupportedOperation:
            return "Unsupported operation."
        case .mismatchedDependencyType(let type, let expected):
            return "Mismatched dependency type, expected '\(expected)' instead of '\(type)'."
        case .missingDependency(let context):
            return "No dependency could be found for \(context)."
        case .multipleDependencies(let context):
            return "Multiple dependencies found for \(context)."
        case .cyclicDependencyReference(let backtrace):
            return "Dependency cycle detected, \(backtrace)."
        case .invalidDependencyParameters(let context, let parameterContext, let parameters):
            let given = parameters.isEmpty ? "no parameters" : "(\(parameters.joined(separator: ", ")))"
            return "Invalid parameters for \(context): \(parameterContext); injected with \(given)."
        }
    }

    public var errorDescription: String? { description }

    public var failureReason: String? {
        var reasons: [String] = []
        switch self {
        case .missingDependency(let context):
            let nearby = context.candidates
            reasons.append(
                nearby.isEmpty
                    ? "No active container registers \(context)."
                    : "Nearest registrations: \(nearby.joined(separator: "; ")).")
        case .multipleDependencies(let context):
            let found = context.candidates
            if !found.isEmpty { reasons.append("Candidates: \(found.joined(separator: "; ")).") }
        default:
            break
        }
        if let chain = neededBy, !chain.isEmpty {
            reasons.append("Needed while instantiating \(chain.map(\.description).joined(separator: " -> ")).")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: " ")
    }

    /// The instantiations in progress, outermost first, when this error was thrown inside a
    /// factory: which dependency failed while building which. Nil for errors thrown by a
    /// top-level injection.
    public var neededBy: [DependencyContext]? {
        switch self {
        case .missingDependency(let context), .multipleDependencies(let context),
            .invalidDependencyParameters(let context, _, _):
            guard let chain = context.diagnosis?.neededBy, !chain.isEmpty else { return nil }
            return chain
        default:
            return nil
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .unknown:
            return "To fix this, look at the underlying error thrown by the factory."
        case .unsupportedOperation:
            return "To fix this, inject a dependency whose factory is async with "
                + "`try await DependencyGraph.injectAsync(…)`."
        case .mismatchedDependencyType(let type, let expected):
            return "To fix this, register a dependency whose instances are '\(expected)', "
                + "or inject it as '\(type)'. A conforms(to:) or inherits(from:) alias must name "
                + "a type the instance really is."
        case .missingDependency(let context):
            var text = "To fix this, register \(context) in a container and activate it"
            if case .type(let type) = context.kind {
                text += ", for example `Dependency { \(type)(…) }`"
            }
            return text + ", or inject an Optional to accept its absence."
        case .multipleDependencies:
            return "To fix this, inject an Array to receive every match, or locate the "
                + "dependency by name or by value."
        case .cyclicDependencyReference:
            return "To fix this, break the cycle: inject one side lazily with @Injected or "
                + "inject it when first used instead of in the initializer."
        case .invalidDependencyParameters(let context, _, _):
            let registered = context.candidates
            let known = registered.isEmpty ? "" : " Registered: \(registered.joined(separator: "; "))."
            return "To fix this, pass parameters whose static types match the factory of \(context)."
                + known
        }
    }
}

extension InjectionError.DependencyContext {
    /// The registrations the failure found or the nearest ones, as its message lists them.
    fileprivate var candidates: [String] { diagnosis?.candidateSummaries ?? [] }
}
