/// A text picture of a graph model, for Graphviz (DOT) or Mermaid: a node per registration,
/// in a subgraph per container (named as the container is), declared edges solid, observed
/// edges dashed, deferred ones (`Lazy`, `Provider`) dotted with a circle, the registrations
/// and edges in a problem in red (in a note, amber), and a dashed red node for each declared
/// dependency that nothing registers.
struct GraphPicture {
    let model: GraphModel
    let findings: [GraphProblem]

    /// The nodes and edges problems (or notes) name.
    private var marked: (nodes: [Int: Bool], edges: [GraphModel.Edge: Bool]) {
        var nodes: [Int: Bool] = [:]
        var edges: [GraphModel.Edge: Bool] = [:]
        for finding in findings {
            let isProblem = !finding.isNote
            for node in finding.nodes { nodes[node] = (nodes[node] ?? false) || isProblem }
            let path = finding.pathNodes
            for (from, to) in zip(path, path.dropFirst()) {
                let edge = GraphModel.Edge(from: from, to: to)
                edges[edge] = (edges[edge] ?? false) || isProblem
            }
        }
        return (nodes, edges)
    }

    /// The lines of a node's label.
    private func label(_ index: Int) -> [String] {
        let node = model.nodes[index]
        let record = node.record
        let parameters = record.parameterTypes.map(\.description).joined(separator: ", ")
        var traits = ["\(record.scope)"]
        if record.isAsync { traits.append("async") }
        if record.isMainActor { traits.append("main actor") }
        if record.eagerness == .eager { traits.append("eager") }
        if let (original, _) = model.decorations?.original(of: node.entry) {
            traits.append("decorates \(original.record.locator.context)")
        }
        return [record.locator.description, "(\(parameters)) -> \(record.producedType)", traits.joined(separator: " · ")]
    }

    /// The nodes of each container, in activation order: (its number, its name, its nodes).
    private var containers: [(number: Int, name: String, nodes: [Int])] {
        var order: [Int] = []
        var members: [Int: [Int]] = [:]
        for (index, node) in model.nodes.enumerated() {
            if members[node.container] == nil { order.append(node.container) }
            members[node.container, default: []].append(index)
        }
        return order.map { ($0, model.nodes[members[$0]![0]].containerName, members[$0]!) }
    }

    /// The declared dependencies nothing registers, each with the nodes declaring it.
    private var missing: [(label: String, from: [Int])] {
        var order: [String] = []
        var from: [String: [Int]] = [:]
        for unanswered in model.unanswered {
            guard case .missing = unanswered.reason else { continue }
            let label = unanswered.requested.context.description
            if from[label] == nil { order.append(label) }
            from[label, default: []].append(unanswered.from)
        }
        return order.map { ($0, from[$0]!) }
    }

    func dot() -> String {
        let (nodes, edges) = marked
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        }
        func color(_ problem: Bool?) -> String {
            problem.map { $0 ? ", color=\"#c62828\", fontcolor=\"#c62828\", penwidth=2" : ", color=\"#ef8f00\", penwidth=2" } ?? ""
        }
        var lines = [
            "digraph Stitcher {",
            "  rankdir=LR;",
            "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for container in containers {
            lines.append("  subgraph cluster_\(container.number) {")
            lines.append("    label=\"\(escaped(container.name))\"; style=dashed; color=\"#9e9e9e\"; fontname=\"Helvetica\";")
            for index in container.nodes {
                let text = label(index).map(escaped).joined(separator: "\\n")
                lines.append("    n\(index) [label=\"\(text)\"\(color(nodes[index]))];")
            }
            lines.append("  }")
        }
        for (number, missing) in missing.enumerated() {
            lines.append("  m\(number) [label=\"\(escaped(missing.label))\\nnot registered\", style=\"rounded,dashed\"\(color(true))];")
            for from in missing.from { lines.append("  n\(from) -> m\(number) [color=\"#c62828\"];") }
        }
        for edge in model.declared { lines.append("  n\(edge.from) -> n\(edge.to)\(dotAttributes(edges[edge], dashed: false));") }
        for edge in model.observed { lines.append("  n\(edge.from) -> n\(edge.to)\(dotAttributes(edges[edge], dashed: true));") }
        // Resolved later, through a Lazy or Provider: dotted, with an open circle at its end.
        for edge in model.deferred { lines.append("  n\(edge.from) -> n\(edge.to) [style=dotted, arrowhead=odot];") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func dotAttributes(_ problem: Bool?, dashed: Bool) -> String {
        var attributes: [String] = dashed ? ["style=dashed"] : []
        if let problem { attributes += problem ? ["color=\"#c62828\"", "penwidth=2"] : ["color=\"#ef8f00\"", "penwidth=2"] }
        return attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
    }

    func mermaid() -> String {
        let (nodes, edges) = marked
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "#amp;").replacingOccurrences(of: "\"", with: "#quot;")
                .replacingOccurrences(of: "<", with: "#lt;").replacingOccurrences(of: ">", with: "#gt;")
        }
        var lines = ["flowchart LR"]
        for container in containers {
            lines.append("  subgraph c\(container.number)[\"\(escaped(container.name))\"]")
            for index in container.nodes {
                lines.append("    n\(index)[\"\(label(index).map(escaped).joined(separator: "<br/>"))\"]")
            }
            lines.append("  end")
        }
        var problemEdges: [Int] = []
        var noteEdges: [Int] = []
        var edgeCount = 0
        func add(_ line: String, _ problem: Bool?) {
            lines.append(line)
            if let problem { problem ? problemEdges.append(edgeCount) : noteEdges.append(edgeCount) }
            edgeCount += 1
        }
        let missing = missing
        for (number, missing) in missing.enumerated() {
            lines.append("  m\(number)[\"\(escaped(missing.label))<br/>not registered\"]")
            for from in missing.from { add("  n\(from) --> m\(number)", true) }
        }
        for edge in model.declared { add("  n\(edge.from) --> n\(edge.to)", edges[edge]) }
        for edge in model.observed { add("  n\(edge.from) -.-> n\(edge.to)", edges[edge]) }
        for edge in model.deferred { add("  n\(edge.from) --o n\(edge.to)", nil) }
        lines.append("  classDef problem stroke:#c62828,stroke-width:2px,color:#c62828")
        lines.append("  classDef note stroke:#ef8f00,stroke-width:2px")
        lines.append("  classDef missing stroke:#c62828,stroke-width:2px,stroke-dasharray:4 3,color:#c62828")
        let problems = nodes.filter(\.value).keys.sorted().map { "n\($0)" }
        let notes = nodes.filter { !$0.value }.keys.sorted().map { "n\($0)" }
        if !problems.isEmpty { lines.append("  class \(problems.joined(separator: ",")) problem") }
        if !notes.isEmpty { lines.append("  class \(notes.joined(separator: ",")) note") }
        if !missing.isEmpty { lines.append("  class \(missing.indices.map { "m\($0)" }.joined(separator: ",")) missing") }
        if !problemEdges.isEmpty {
            lines.append("  linkStyle \(problemEdges.map(String.init).joined(separator: ",")) stroke:#c62828,stroke-width:2px")
        }
        if !noteEdges.isEmpty {
            lines.append("  linkStyle \(noteEdges.map(String.init).joined(separator: ",")) stroke:#ef8f00,stroke-width:2px")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
