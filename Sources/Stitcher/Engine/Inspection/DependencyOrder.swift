/// Orders selected registrations of a graph model (a server's services) so that each comes
/// after every selected one it depends on, directly or through registrations that are not
/// selected; or finds a cycle among them.
struct DependencyOrder {
    let model: GraphModel
    let selected: [Int]
    /// For each selected node, the selected nodes it depends on, in node order.
    let dependencies: [Int: [Int]]

    init(_ model: GraphModel, selected: [Int]) {
        self.model = model
        self.selected = selected
        let isSelected = Set(selected)
        var dependencies: [Int: [Int]] = [:]
        for start in selected {
            // Through unselected nodes only: a selected one is a dependency, not a way through.
            var seen: Set<Int> = [start]
            var stack = [start]
            var found: Set<Int> = []
            while let node = stack.popLast() {
                for next in model.successors[node] where seen.insert(next).inserted {
                    if isSelected.contains(next) { found.insert(next) } else { stack.append(next) }
                }
            }
            dependencies[start] = found.sorted()
        }
        self.dependencies = dependencies
    }

    /// The selected nodes, each after its dependencies and otherwise in node order; or a
    /// cycle among them, its first node repeated at the end.
    func ordered() -> Result<[Int], CycleFound> {
        var remaining = Dictionary(uniqueKeysWithValues: selected.map { ($0, Set(dependencies[$0]!)) })
        var order: [Int] = []
        while !remaining.isEmpty {
            guard let next = remaining.filter({ $0.value.isEmpty }).keys.min() else {
                return .failure(CycleFound(path: cycle(among: Set(remaining.keys))))
            }
            order.append(next)
            remaining[next] = nil
            for key in remaining.keys { remaining[key]!.remove(next) }
        }
        return .success(order)
    }

    struct CycleFound: Error {
        let path: [Int]
    }

    /// A cycle among `nodes` (each depends on another of them), found by walking from the
    /// smallest until a node repeats.
    private func cycle(among nodes: Set<Int>) -> [Int] {
        var path = [nodes.min()!]
        while true {
            let next = dependencies[path.last!]!.first { nodes.contains($0) }!
            if let start = path.firstIndex(of: next) { return Array(path[start...]) + [next] }
            path.append(next)
        }
    }
}
