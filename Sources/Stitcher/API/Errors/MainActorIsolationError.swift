import Foundation

/// A synchronous injection that would have to build a main-actor dependency on another thread.
///
/// A registration whose factory is isolated to the main actor (``DependencyIsolation``) is
/// built on the main actor only. Inject it from code on the main actor, or with
/// `try await DependencyGraph.injectAsync(…)`, which hops to the main actor to build it; once
/// stored (a singleton, a shared instance still held), it is returned on any thread.
///
/// ```swift
/// do {
///     let model: ProfileViewModel = try DependencyGraph.inject()
/// } catch let error as MainActorIsolationError {
///     let model: ProfileViewModel = try await DependencyGraph.injectAsync()
/// }
/// ```
public struct MainActorIsolationError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// The dependency whose factory is isolated to the main actor.
    public let requested: InjectionError.DependencyContext
    /// The instantiations in progress, outermost first; empty for a top-level injection.
    public let neededBy: [InjectionError.DependencyContext]

    public var description: String {
        "\(requested) is isolated to the main actor and cannot be built synchronously elsewhere."
    }

    public var errorDescription: String? { description }

    public var failureReason: String? {
        neededBy.isEmpty ? nil : "Needed while instantiating \(neededBy.map(\.description).joined(separator: " -> "))."
    }

    public var recoverySuggestion: String? {
        "To fix this, inject it from the main actor, or with `try await DependencyGraph.injectAsync(…)`, "
            + "which builds it on the main actor."
    }
}
