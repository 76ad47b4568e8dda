import Foundation

/// An injection of a `.scoped` dependency that no open scope can serve, or that would make
/// a longer-lived instance hold it; or of a child graph's dependency by what a parent graph
/// stores.
///
/// ```swift
/// do {
///     let session: RequestSession = try DependencyGraph.inject()
/// } catch let error as DependencyScopeError where error.reason == .noScopeOpen {
///     try DependencyGraph.withScope { /* inject it here */ }
/// }
/// ```
public struct DependencyScopeError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// Why the `.scoped` dependency could not be injected.
    public enum Reason: Hashable, Sendable {
        /// No dependency scope is open in the injecting task or thread.
        case noScopeOpen
        /// The scope the injection runs in has already ended (a task or a captured context
        /// outlived it).
        case scopeEnded
        /// A dependency that outlives scopes (`holder`, kept as `holderScope`) injects the
        /// `.scoped` dependency, directly or through `.instance` dependencies: it would keep
        /// the scope's instance after the scope ends (a captive dependency).
        case captiveDependency(holder: InjectionError.DependencyContext, holderScope: String)
        /// A dependency a parent graph stores (`holder`, kept as `holderScope`) injects one
        /// that only a child graph registers (``DependencyGraph/Context/child()``): the
        /// parent's instance would keep the child's after the child ends.
        case capturesChildDependency(holder: InjectionError.DependencyContext, holderScope: String)
        /// The registration keeps its instances by parameter values (it is not `.instance`),
        /// and parameters of these types were given, not all `Hashable`.
        case unhashableParameters(types: [String])
    }

    /// Why the injection failed.
    public let reason: Reason
    /// The `.scoped` dependency asked for.
    public let requested: InjectionError.DependencyContext
    /// The instantiations that led to the request, outermost first, ending with `requested`.
    public let chain: [InjectionError.DependencyContext]

    public var description: String {
        switch reason {
        case .noScopeOpen:
            "\(requested) is .scoped, and no dependency scope is open."
        case .scopeEnded:
            "\(requested) is .scoped, and the dependency scope it was injected in has ended."
        case .captiveDependency(let holder, let holderScope):
            "\(holder) is .\(holderScope) and injects \(requested), which is .scoped: "
                + "it would keep one scope's instance after that scope ends."
        case .capturesChildDependency(let holder, let holderScope):
            "\(holder) is .\(holderScope) in a parent graph and injects \(requested), which only a child graph "
                + "registers: the parent's instance would keep the child's after the child graph ends."
        case .unhashableParameters(let types):
            "\(requested) keeps an instance per parameter values, and its parameters (\(types.joined(separator: ", "))) "
                + "are not all Hashable, so equal values cannot be found again."
        }
    }

    public var errorDescription: String? { description }

    public var failureReason: String? {
        chain.count > 1 ? "Injected along \(chain.map(\.description).joined(separator: " -> "))." : nil
    }

    public var recoverySuggestion: String? {
        switch reason {
        case .noScopeOpen:
            "To fix this, inject it inside `DependencyGraph.withScope { … }` (one scope per request, job or "
                + "session), or give it a scope that needs none, such as `.singleton` or `.instance`."
        case .scopeEnded:
            "To fix this, finish the work that injects it before the scope's body returns (await the tasks "
                + "it starts), or open a new scope for work that outlives it."
        case .captiveDependency(let holder, _):
            "To fix this, make \(holder) `.scoped` or `.instance` too, or have it inject a factory "
                + "(a closure calling `DependencyGraph.inject`) and call it within each scope."
        case .capturesChildDependency(let holder, _):
            "To fix this, register \(holder) in the child graph (one instance per child), make it `.instance`, "
                + "or register \(requested) in the parent graph too."
        case .unhashableParameters:
            "To fix this, give it the `.instance` scope (a new instance per injection, any parameters), or make "
                + "the parameter types Hashable (a class can compare by identity: `ObjectIdentifier(self)`)."
        }
    }
}

/// The teardowns that failed when a dependency scope ended.
///
/// Every teardown runs, in reverse creation order, whatever the others do; the failures are
/// collected here. Thrown by `withScope` when its body returned normally; when the body
/// threw, its own error is rethrown and this one goes to the graph's observer
/// (``DependencyGraphObserver/didTearDown(_:)``), or to standard error when there
/// is none.
///
/// ```swift
/// do {
///     try DependencyGraph.withScope { try handle(request) }
/// } catch let error as ScopeTeardownError {
///     for failure in error.failures { logger.error("\(failure.dependency): \(failure.error)") }
/// }
/// ```
public struct ScopeTeardownError: Error, CustomStringConvertible, LocalizedError, @unchecked Sendable {
    /// One teardown that threw.
    public struct Failure: @unchecked Sendable, CustomStringConvertible {
        /// The dependency whose teardown threw.
        public let dependency: InjectionError.DependencyContext
        /// What its teardown threw.
        public let error: any Error

        public var description: String { "\(dependency): \(error)" }
    }

    /// The failed teardowns, in the order they ran.
    public let failures: [Failure]

    public var description: String {
        "\(failures.count) teardown\(failures.count == 1 ? "" : "s") failed when a dependency scope ended: "
            + failures.map(\.description).joined(separator: "; ")
    }

    public var errorDescription: String? { description }

    public var recoverySuggestion: String? {
        "To fix this, make `tearDown()` of the dependencies named here succeed, or handle what it throws there; "
            + "the other instances of the scope were torn down."
    }
}
