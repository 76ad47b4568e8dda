/// The active registrations of a graph as nodes, and what each depends on as edges: the
/// dependencies its factory declares (an autowired initializer's parameters), answered as
/// an injection would answer them, and those an observer saw it inject.
///
/// Built from one index snapshot without running any factory; read by the verifier and by
/// the graph's pictures.
struct GraphModel {
    struct Node {
        let entry: IndexEntry
        /// The container the registration belongs to, counted from 1 in activation order.
        let container: Int
        /// That container's name.
        let containerName: String

        var record: RegistrationRecord { entry.record }
    }

    struct Edge: Hashable {
        let from: Int
        let to: Int
    }

    /// A declared dependency that no single registration answers.
    struct Unanswered {
        enum Reason {
            case missing
            case ambiguous([Int])
            case parameterMismatch([Int])
        }

        let from: Int
        /// What was asked for (for an Optional, the request of its element).
        let requested: LookupKey
        /// The type it is injected as.
        let type: TypeKey
        let reason: Reason
    }

    let nodes: [Node]
    /// The decorations applied to the index (a decoration's entry depends on what it
    /// decorates: a declared edge).
    let decorations: IndexDecorations?
    private let positions: [ObjectIdentifier: Int]
    /// Declared edges, in the order of the nodes and of their declarations.
    private(set) var declared: [Edge] = []
    /// Declared edges through a `Lazy` or `Provider`: resolved after the build that injects
    /// them, so neither part of a cycle nor a successor.
    private(set) var deferred: [Edge] = []
    /// Observed edges that no declaration shows, in the order of the nodes.
    private(set) var observed: [Edge] = []
    private(set) var unanswered: [Unanswered] = []
    /// Registrations an observer saw injected while no dependency scope was open.
    private(set) var unscoped: [Int] = []
    /// For each node, the nodes it depends on (declared and observed), without repeats.
    private(set) var successors: [[Int]]
    /// In a child graph's model: the nodes its ancestors registered (empty otherwise).
    private(set) var inherited: Set<Int> = []

    /// - Parameter names: the names of the active containers, by the identity their entries
    ///   name as their owner (`GraphEngine.containerNames()`).
    /// - Parameter own: in a child graph, its own containers' identities (the rest of the
    ///   nodes are inherited); nil for any other graph.
    init(
        _ snapshot: IndexSnapshot, names: [ObjectIdentifier: String], observations recorders: [DependencyEdgeRecorder],
        own: Set<ObjectIdentifier>? = nil
    ) {
        var containers: [ObjectIdentifier: Int] = [:]
        nodes = snapshot.entries.map { entry in
            if containers[entry.owner] == nil { containers[entry.owner] = containers.count + 1 }
            let number = containers[entry.owner]!
            return Node(entry: entry, container: number, containerName: names[entry.owner] ?? "container \(number)")
        }
        successors = Array(repeating: [], count: nodes.count)
        decorations = snapshot.decorations
        if let own { inherited = Set(nodes.indices.filter { [nodes] in !own.contains(nodes[$0].entry.owner) }) }
        var positions: [ObjectIdentifier: Int] = [:]
        positions.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() { positions[ObjectIdentifier(node.entry)] = index }
        self.positions = positions
        let position = { (entry: IndexEntry) in positions[ObjectIdentifier(entry)]! }
        for (index, node) in nodes.enumerated() {
            if let (original, _) = decorations?.original(of: node.entry), let target = positions[ObjectIdentifier(original)] {
                declared.append(Edge(from: index, to: target))
                successors[index].append(target)
            }
            for requested in node.record.declaredDependencies {
                switch Self.answer(requested.key, requested.type, in: snapshot, position: position) {
                case .targets(let targets, isDeferred: true):
                    for target in targets where !deferred.contains(Edge(from: index, to: target)) {
                        deferred.append(Edge(from: index, to: target))
                    }
                case .targets(let targets, isDeferred: false):
                    // A node declares a few dependencies: a linear check beats hashing.
                    for target in targets where !successors[index].contains(target) {
                        declared.append(Edge(from: index, to: target))
                        successors[index].append(target)
                    }
                case .unanswered(let key, let type, let reason):
                    unanswered.append(Unanswered(from: index, requested: key, type: type, reason: reason))
                }
            }
        }
        let observations = recorders.map(\.observations)
        guard !observations.isEmpty else { return }
        var identities: [IdentityKey: Int] = [:]
        for (index, node) in nodes.enumerated() { identities[IdentityKey(node.record)] = index }
        var found = Set<Edge>()
        for edge in observations.lazy.flatMap(\.edges) {
            guard let from = identities[edge.from], let to = identities[edge.to], !successors[from].contains(to) else { continue }
            found.insert(Edge(from: from, to: to))
        }
        // In the order of the nodes, whatever order the recorders kept them in.
        observed = found.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        for edge in observed { successors[edge.from].append(edge.to) }
        let contexts = Set(observations.flatMap(\.unscoped))
        unscoped = nodes.indices.filter {
            nodes[$0].record.lifetime.needsOpenScope && contexts.contains(nodes[$0].record.locator.context)
        }
    }

    private enum Answer {
        /// The nodes that answer (none for an absent optional dependency), and whether they
        /// are reached later, through a `Lazy` or `Provider`.
        case targets([Int], isDeferred: Bool)
        /// Why no node answers a request located by `key` for the type `type` (the element
        /// type, for a wrapper).
        case unanswered(LookupKey, TypeKey, Unanswered.Reason)
    }

    /// What answers a dependency on `type` located by `key`, injected without parameters as
    /// an autowired initializer injects it; an injection follows the same steps
    /// (`resolveSlowly`), unwrapping wrappers one level at a time (`Lazy<[any Plugin]>`).
    private static func answer(
        _ key: LookupKey, _ type: TypeKey, in snapshot: IndexSnapshot, position: (IndexEntry) -> Int
    ) -> Answer {
        let accepts = { (record: RegistrationRecord) in !record.takesParameters }
        let candidates = snapshot.entries(for: key)?.entries ?? []
        switch RequestAnswer(key, candidates, accepts: accepts) {
        case .entry(let entry): return .targets([position(entry)], isDeferred: false)
        case .parameterMismatch: return .unanswered(key, type, .parameterMismatch(candidates.map(position)))
        case .ambiguous(let matching): return .unanswered(key, type, .ambiguous(matching.map(position)))
        case .nothing: break
        }
        // Nothing under the key itself: a wrapper stands for its element.
        guard let wrapper = type.type as? any InjectableWrapper.Type else { return .unanswered(key, type, .missing) }
        let (element, kind) = wrapper.wrappedRequest
        let elementKey: LookupKey = if case .type = key { .type(element) } else { key }
        switch kind {
        case .collection:
            let elements = snapshot.entries(for: elementKey)?.entries ?? []
            return .targets(elements.filter { accepts($0.record) }.map(position), isDeferred: false)
        case .optional:
            // An absent optional dependency is nil.
            let answer = answer(elementKey, element, in: snapshot, position: position)
            if case .unanswered(_, _, .missing) = answer { return .targets([], isDeferred: false) }
            return answer
        case .deferred:
            let answer = answer(elementKey, element, in: snapshot, position: position)
            if case .targets(let targets, _) = answer { return .targets(targets, isDeferred: true) }
            return answer
        }
    }

    /// The node of `entry`, if the model has it.
    func position(of entry: IndexEntry) -> Int? {
        positions[ObjectIdentifier(entry)]
    }

    /// How problems and pictures name a node: its summary and container.
    func declaration(of index: Int) -> String {
        "\(nodes[index].record.summary) (in \(nodes[index].containerName))"
    }

    func context(of index: Int) -> InjectionError.DependencyContext {
        nodes[index].record.locator.context
    }
}
