/// A text format for a picture of the dependency graph.
///
/// ```swift
/// try DependencyGraph.export(.dot).write(toFile: "graph.dot", atomically: true, encoding: .utf8)
/// // dot -Tsvg graph.dot -o graph.svg
/// ```
public enum GraphExportFormat: String, Sendable, CaseIterable {
    /// Graphviz's DOT language: render it with `dot -Tsvg graph.dot -o graph.svg`.
    case dot
    /// A Mermaid flowchart: GitHub and most Markdown viewers draw it in a `mermaid` code block.
    case mermaid
}

extension DependencyGraph {
    /// A text picture of the current graph: one node per active registration (its locator,
    /// parameter and instance types, scope, container, and whether it is asynchronous,
    /// isolated to the main actor or eager), an edge per dependency (declared ones solid,
    /// observed ones dashed, deferred ones through a ``Lazy`` or ``Provider`` dotted and
    /// ending in a circle), what ``verify(_:)`` finds in red (notes in amber), and a dashed
    /// red node for each declared dependency that nothing registers.
    ///
    /// Observed edges come from a ``DependencyEdgeRecorder``: the graph's observer, or the
    /// one in `options`. Nothing is built, whatever `options` says.
    ///
    /// ```swift
    /// DependencyGraph.observer = DependencyEdgeRecorder()
    /// // … run the app for a while …
    /// print(DependencyGraph.export(.mermaid))
    /// ```
    public static func export(_ format: GraphExportFormat, _ options: VerificationOptions = .declarationsOnly) -> String {
        GraphContext.current.picture(options).render(format)
    }
}

extension DependencyGraph.Context {
    /// A text picture of this graph (see ``DependencyGraph/export(_:_:)``).
    public func export(
        _ format: GraphExportFormat, _ options: DependencyGraph.VerificationOptions = .declarationsOnly
    ) -> String {
        run { DependencyGraph.export(format, options) }
    }
}
