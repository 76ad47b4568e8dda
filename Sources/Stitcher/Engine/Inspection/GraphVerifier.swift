/// Finds every problem of a graph model: declared dependencies that nothing (or too much)
/// answers, synchronous factories declaring asynchronous dependencies, cycles, captive
/// dependencies, `.scoped` dependencies reached outside any scope; and notes.
///
/// Linear in the registrations and edges but for the walks from each holder through the
/// `.instance` dependencies it builds, which stop at the first stored dependency.
struct GraphVerifier {
    let model: GraphModel
    let snapshot: IndexSnapshot
    /// For a child graph: its parent's index, where the instances the ancestors store are
    /// built (`GraphEngine+Children`).
    var parentSnapshot: IndexSnapshot? = nil

    /// The names of the model's containers, by the identity their entries name as owner.
    private var containerNames: [ObjectIdentifier: String] {
        Dictionary(model.nodes.map { ($0.entry.owner, $0.containerName) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every problem and note, in the order of the registrations they were found in.
    func findings() -> [GraphProblem] {
        var found =
            unansweredDependencies() + asynchronousDependencies() + cycles() + heldDependencies() + unscoped()
            + childDependenciesCaptured()
        // Stable: problems of one registration keep the order of their kinds.
        found = found.enumerated().sorted { ($0.element.nodes[0], $0.offset) < ($1.element.nodes[0], $1.offset) }.map(\.element)
        return found
    }

    private func unansweredDependencies() -> [GraphProblem] {
        let containerNames = containerNames
        return model.unanswered.map { unanswered in
            let requested = unanswered.requested.context
            let declarer = model.context(of: unanswered.from)
            switch unanswered.reason {
            case .missing:
                let own = NearbyRegistrations.summary(of: model.nodes[unanswered.from].entry, containerNames)
                let nearby = NearbyRegistrations(key: unanswered.requested, snapshot: snapshot, names: containerNames).summaries
                    .filter { $0 != own }
                let near = nearby.isEmpty ? "" : " Nearest registrations: \(nearby.joined(separator: "; "))."
                return GraphProblem(
                    .missingDependency, in: model, node: unanswered.from, requested: requested,
                    message: "\(declarer) declares a dependency on \(requested), which no active container registers.\(near)",
                    fix: "To fix this, register \(requested) in an active container, for example "
                        + "`\(Self.registration(of: unanswered))`, or make the parameter Optional to accept its absence.")
            case .ambiguous(let candidates):
                return GraphProblem(
                    .ambiguousDependency, in: model, node: unanswered.from, requested: requested, involving: candidates,
                    message: "\(declarer) declares a dependency on \(requested), which \(candidates.count) registrations "
                        + "answer: \(candidates.map(model.declaration(of:)).joined(separator: "; ")).",
                    fix: "To fix this, register exactly one of them as \(unanswered.type) itself (the exact type "
                        + "wins over an alias), locate the others by name or value, or make the parameter an Array to take every match.")
            case .parameterMismatch(let candidates):
                let taken = candidates.map { "(\(model.nodes[$0].record.parameterTypes.map(\.description).joined(separator: ", ")))" }
                return GraphProblem(
                    .parameterMismatch, in: model, node: unanswered.from, requested: requested, involving: candidates,
                    message: "\(declarer) declares a dependency on \(requested) without parameters, but its registrations "
                        + "take \(taken.joined(separator: " or ")).",
                    fix: "To fix this, register \(requested) without parameters, or inject it in a factory closure that "
                        + "passes them: `Dependency { \(model.nodes[unanswered.from].record.producedType)(…: try inject(parameters: …)) }`."
                )
            }
        }
    }

    /// How to register what a missing dependency asks for.
    private static func registration(of unanswered: GraphModel.Unanswered) -> String {
        if case .name(let name) = unanswered.requested { return "Dependency { \(unanswered.type)(…) }.named(\"\(name)\")" }
        return "Dependency { \(unanswered.type)(…) }"
    }

    private func asynchronousDependencies() -> [GraphProblem] {
        model.declared.compactMap { edge in
            let from = model.nodes[edge.from].record
            let to = model.nodes[edge.to].record
            guard !from.isAsync, to.isAsync else { return nil }
            return GraphProblem(
                .asynchronousDependency, in: model, node: edge.from, requested: to.locator.context, path: [edge.from, edge.to],
                message: "The factory of \(from.locator.context) is synchronous, but it declares \(to.locator.context), "
                    + "whose factory is asynchronous: injecting \(from.locator.context) throws.",
                fix: "To fix this, give \(from.producedType) an async initializer (autowiring it then registers an "
                    + "asynchronous factory, injected with injectAsync), or make the factory of \(to.locator.context) synchronous.")
        }
    }

    private func cycles() -> [GraphProblem] {
        StronglyConnected.components(model.successors).compactMap { component in
            guard let start = component.min(), let path = cycle(from: start, within: Set(component)) else { return nil }
            let names = path.map { model.context(of: $0).description }.joined(separator: " -> ")
            return GraphProblem(
                .dependencyCycle, in: model, node: start, path: path, involving: component,
                message: "Dependencies depend on each other in a cycle: \(names).",
                fix: "To fix this, break the cycle: move what they share into a dependency of its own, or have one of "
                    + "them take the other as a Lazy or Provider (resolved when first used, not when built).")
        }
    }

    /// A shortest path from `start` back to itself through `members`, `start` at both ends.
    private func cycle(from start: Int, within members: Set<Int>) -> [Int]? {
        var previous: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in model.successors[node] where members.contains(next) {
                if next == start {
                    var path = [start, node]
                    while path.last != start, let step = previous[path.last!] { path.append(step) }
                    if node == start { return [start, start] }
                    return path.reversed()
                }
                if previous[next] == nil {
                    previous[next] = node
                    queue.append(next)
                }
            }
        }
        return nil
    }

    /// Captive dependencies (and the notes for shared ones) of every holder, and `.scoped`
    /// dependencies an eager `.instance` dependency reaches at activation.
    private func heldDependencies() -> [GraphProblem] {
        var found: [GraphProblem] = []
        var walk = TransientWalk(model: model)
        for (holder, node) in model.nodes.enumerated() {
            let record = node.record
            let isEagerRoot = record.eagerness == .eager && !record.takesParameters && !record.lifetime.storesInstances
            guard record.lifetime.outlivesScopes || isEagerRoot else { continue }
            for path in walk.storedDependencies(of: holder) {
                let held = model.nodes[path.last!].record
                // Named only for a finding: naming a type is what costs most here.
                var name: InjectionError.DependencyContext { record.locator.context }
                var heldName: InjectionError.DependencyContext { held.locator.context }
                var through: String {
                    path.count > 2
                        ? " through \(path.dropFirst().dropLast().map { model.context(of: $0).description }.joined(separator: " -> "))" : ""
                }
                switch (held.lifetime.needsOpenScope, held.lifetime.entryKeeps) {
                case (true, _) where isEagerRoot:
                    found.append(
                        GraphProblem(
                            .scopedOutsideScope, in: model, node: holder, requested: heldName, path: path,
                            message: "\(name) is eager, built at activation outside any dependency scope, but depends on the "
                                + ".scoped \(heldName)\(through): building it throws DependencyScopeError.",
                            fix: "To fix this, make \(name) lazy and inject it inside `DependencyGraph.withScope { … }`, "
                                + "or give \(heldName) a scope that does not need an open dependency scope."))
                case (true, _):
                    found.append(
                        GraphProblem(
                            .captiveDependency, in: model, node: holder, requested: heldName, path: path,
                            message: "\(name) (\(record.scope)) depends on \(heldName) (scoped)\(through): it would keep "
                                + "that instance past the end of its dependency scope.",
                            fix: "To fix this, make \(name) .scoped or .instance, or make \(heldName) outlive scopes "
                                + "(.singleton or .shared) if one instance may serve every scope."))
                case (_, .weakly?) where record.lifetime.entryKeeps == .strongly:
                    found.append(
                        GraphProblem(
                            .singletonHoldsShared, in: model, node: holder, requested: heldName, path: path,
                            message: "\(name) (\(record.scope)) holds \(heldName) (shared)\(through), which then lives as long as it does.",
                            fix: "To fix this, if \(heldName) should be released while \(name) lives, inject it where it is "
                                + "used instead of keeping it; otherwise there is nothing to fix."))
                default:
                    break
                }
            }
        }
        return found
    }

    /// In a child graph: what an ancestor stores (built in the ancestor) reaching, directly or
    /// through the transient dependencies it builds, a registration only the child has.
    private func childDependenciesCaptured() -> [GraphProblem] {
        guard let parentSnapshot, !model.inherited.isEmpty else { return [] }
        var found: [GraphProblem] = []
        for holder in model.inherited.sorted() where model.nodes[holder].record.lifetime.entryKeeps != nil {
            var previous: [Int: Int] = [holder: holder]
            var queue = [holder]
            while let node = queue.popLast() {
                for next in model.successors[node] where previous[next] == nil {
                    previous[next] = node
                    let record = model.nodes[next].record
                    if model.inherited.contains(next) {
                        if !record.lifetime.storesInstances { queue.append(next) }
                        continue
                    }
                    // The child overrides what the parent registers: the parent's is used.
                    if Self.answers(parentSnapshot, record.locator) { continue }
                    var path = [next]
                    while path.last != holder { path.append(previous[path.last!]!) }
                    let holderRecord = model.nodes[holder].record
                    let name = holderRecord.locator.context
                    let held = record.locator.context
                    found.append(
                        GraphProblem(
                            .captiveDependency, in: model, node: holder, requested: held, path: path.reversed(),
                            message: "\(name) (\(holderRecord.scope)) is registered in a parent graph and depends on \(held), which "
                                + "only this child graph registers: building it throws DependencyScopeError, since it would keep "
                                + "the child's instance after the child ends.",
                            fix: "To fix this, register \(name) in the child graph, make it .instance, or register \(held) in "
                                + "the parent graph too."))
                }
            }
        }
        return found
    }

    /// Whether `snapshot` registers anything under `locator` (any of its types).
    private static func answers(_ snapshot: IndexSnapshot, _ locator: DependencyLocator) -> Bool {
        switch locator.kind {
        case .type(let types): types.contains { snapshot.entries(ofType: $0.id) != nil }
        case .name(let name): snapshot.entries(named: name) != nil
        case .value(let value): snapshot.entries(for: value) != nil
        }
    }

    /// `.scoped` dependencies an observer saw injected while no scope was open.
    private func unscoped() -> [GraphProblem] {
        model.unscoped.map { node in
            let name = model.context(of: node)
            return GraphProblem(
                .scopedOutsideScope, in: model, node: node,
                message: "\(name) is .scoped, and was injected while no dependency scope was open (observed).",
                fix: "To fix this, inject it inside `DependencyGraph.withScope { … }` (a request, a unit of work), "
                    + "or give it a scope that does not need an open dependency scope.")
        }
    }
}

/// Walks from a holder through the `.instance` dependencies it builds, to the first stored
/// dependency on each path: what the holder keeps when it is built. Reuses its buffers.
private struct TransientWalk {
    let model: GraphModel
    private var visitedIn: [Int]
    private var previous: [Int]
    private var walk = 0

    init(model: GraphModel) {
        self.model = model
        visitedIn = Array(repeating: -1, count: model.nodes.count)
        previous = Array(repeating: -1, count: model.nodes.count)
    }

    /// The paths from `holder` to each stored dependency it reaches, `holder` first.
    mutating func storedDependencies(of holder: Int) -> [[Int]] {
        walk += 1
        visitedIn[holder] = walk
        var found: [[Int]] = []
        var queue = [holder]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in model.successors[node] where visitedIn[next] != walk {
                visitedIn[next] = walk
                previous[next] = node
                if !model.nodes[next].record.lifetime.storesInstances {
                    queue.append(next)
                } else {
                    var path = [next]
                    while path.last != holder { path.append(previous[path.last!]) }
                    found.append(path.reversed())
                }
            }
        }
        return found
    }
}

/// Tarjan's strongly connected components, iteratively (a deep graph must not overflow the
/// stack): the components that form cycles, a single node only when it depends on itself.
enum StronglyConnected {
    static func components(_ successors: [[Int]]) -> [[Int]] {
        let count = successors.count
        var index = Array(repeating: -1, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var stack: [Int] = []
        var result: [[Int]] = []
        var counter = 0
        for root in 0..<count where index[root] == -1 {
            // Each frame: a node and the position of its next successor to visit.
            var frames = [(node: root, next: 0)]
            index[root] = counter
            lowLink[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while let (node, next) = frames.last {
                if next < successors[node].count {
                    frames[frames.count - 1].next += 1
                    let successor = successors[node][next]
                    if index[successor] == -1 {
                        index[successor] = counter
                        lowLink[successor] = counter
                        counter += 1
                        stack.append(successor)
                        onStack[successor] = true
                        frames.append((successor, 0))
                    } else if onStack[successor] {
                        lowLink[node] = min(lowLink[node], index[successor])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                guard lowLink[node] == index[node] else { continue }
                var component: [Int] = []
                while true {
                    let member = stack.removeLast()
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                if component.count > 1 || successors[node].contains(node) { result.append(component) }
            }
        }
        return result
    }
}
