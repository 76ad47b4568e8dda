/// One problem ``DependencyGraph/verify(_:)`` found in the graph, or a note worth knowing.
///
/// It names the registration it was found in and where that registration is declared, what
/// it asked for, and how to fix it; its description prints all of that.
///
/// ```swift
/// let report = DependencyGraph.verificationReport()
/// for problem in report.problems where problem.kind == .missingDependency {
///     print(problem.requested!, "is needed by", problem.dependency)
/// }
/// ```
public struct GraphProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A declared dependency has no registration.
        case missingDependency
        /// A declared dependency has several registrations, none of exactly its type.
        case ambiguousDependency
        /// A declared dependency's registrations all take parameters the declaration cannot give.
        case parameterMismatch
        /// A synchronous factory declares a dependency whose factory is asynchronous.
        case asynchronousDependency
        /// Dependencies depend on each other in a cycle.
        case dependencyCycle
        /// A singleton, shared or managed dependency depends on a `.scoped` one, which it would
        /// keep past the end of its scope.
        case captiveDependency
        /// A `.scoped` dependency is reached where no dependency scope is open: from an eager
        /// dependency built at activation, or (as observed) from an injection outside a scope.
        case scopedOutsideScope
        /// A factory threw when verification built it.
        case failingFactory
        /// A note, not a problem: a singleton holds a `.shared` dependency, which then lives as
        /// long as the singleton.
        case singletonHoldsShared
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The registration the problem was found in.
    public let dependency: InjectionError.DependencyContext
    /// Where that registration is declared: its locator, parameter and instance types,
    /// scope, and the name of the container it belongs to.
    public let declaration: String
    /// The name of the container the registration belongs to (``DependencyContainer/name``).
    public let container: String
    /// What it asks for, when the problem is about one of its requests.
    public let requested: InjectionError.DependencyContext?
    /// The dependencies involved, in order: a cycle's path back to its start, or the chain
    /// from a holder to the `.scoped` dependency it holds.
    public let path: [InjectionError.DependencyContext]
    /// What is wrong, in a sentence.
    public let message: String
    /// How to fix it, starting "To fix this, ".
    public let fix: String
    /// The graph nodes involved, the registration's first, for pictures of the graph.
    let nodes: [Int]
    /// The nodes of `path`, whose edges pictures highlight.
    let pathNodes: [Int]

    /// Whether this is a note, which ``DependencyGraph/verify(_:)`` does not throw for.
    public var isNote: Bool { kind == .singletonHoldsShared }

    public var description: String {
        "\(message)\n   Declared by \(declaration).\n   \(fix)"
    }

    init(
        _ kind: Kind, in model: GraphModel, node: Int, requested: InjectionError.DependencyContext? = nil,
        path: [Int] = [], involving others: [Int] = [], message: String, fix: String
    ) {
        self.kind = kind
        dependency = model.context(of: node)
        declaration = model.declaration(of: node)
        container = model.nodes[node].containerName
        self.requested = requested
        self.path = path.map(model.context(of:))
        pathNodes = path
        self.message = message
        self.fix = fix
        nodes = [node] + path.filter { $0 != node } + others
    }

    init(failingFactory node: Int, in model: GraphModel, error: any Error, neededBy: [InjectionError.DependencyContext]) {
        let context = model.context(of: node)
        let chain = neededBy.isEmpty ? "" : " (needed by \(neededBy.map(\.description).joined(separator: " -> ")))"
        self.init(
            .failingFactory, in: model, node: node, path: [],
            message: "The factory of \(context) threw when built\(chain): \(error)",
            fix: "To fix this, make the factory succeed with the graph as activated, or inject the "
                + "dependency as an Optional where its absence is expected.")
    }
}
