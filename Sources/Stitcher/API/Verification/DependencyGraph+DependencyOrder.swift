// Building selected registrations in dependency order, for the integrations of this
// package (StitcherServiceLifecycle starts a server's services in that order).

/// A registration built by `buildInDependencyOrder(selecting:)`, with its instance.
package struct OrderedDependency: @unchecked Sendable {
    /// The registration, as errors name it.
    package let dependency: InjectionError.DependencyContext
    /// Its instance, as a value of its own type.
    package let instance: Any
    /// The selected registrations it depends on, directly or through others.
    package let dependencies: [InjectionError.DependencyContext]
}

/// Why selected registrations cannot be built in dependency order.
package enum DependencyOrderFailure: Error {
    /// They depend on each other in a cycle (its first registration repeated at the end).
    case cycle([InjectionError.DependencyContext])
    /// A selected registration does not keep one instance: its scope, or it takes parameters.
    case notOneInstance(InjectionError.DependencyContext, scope: DependencyScope, takesParameters: Bool)
}

extension DependencyGraph.Context {
    /// Builds (or finds) the instance of every registration of this graph whose type, or one
    /// of the types it is injected as, `isSelected` accepts, each after every selected one it
    /// depends on; returns them in that order.
    ///
    /// The order follows declared edges and those a `DependencyEdgeRecorder` observed, and
    /// is checked again with the edges seen while building (a factory that injects another
    /// selected registration builds it first).
    ///
    /// - Throws: `DependencyOrderFailure` before anything is built, for a selected
    ///   registration that is not a singleton or managed one without parameters, or a cycle
    ///   among declared edges; a cycle seen while building after; and what building throws.
    package func buildInDependencyOrder(selecting isSelected: (Any.Type) -> Bool) async throws -> [OrderedDependency] {
        let engine = graph
        let snapshot = run { engine.snapshot() }
        let observed = engine.settings.observer?.edgeRecorder.map { [$0] } ?? []
        let names = engine.containerNames()
        let model = GraphModel(snapshot, names: names, observations: observed)
        let selected = model.nodes.indices.filter { node in
            guard case .type(let types) = model.nodes[node].record.locator.kind else {
                return isSelected(model.nodes[node].record.producedType.type)
            }
            return isSelected(model.nodes[node].record.producedType.type) || types.contains { isSelected($0.type) }
        }
        for node in selected {
            let record = model.nodes[node].record
            guard record.lifetime.entryKeeps == .strongly, !record.takesParameters else {
                throw DependencyOrderFailure.notOneInstance(
                    record.locator.context, scope: record.scope, takesParameters: record.takesParameters)
            }
        }
        let declaredOrder = try Self.order(DependencyOrder(model, selected: selected), model)
        // Built in that order, recording which factory injects which.
        let recorder = DependencyEdgeRecorder()
        let previous = engine.settings.observer
        engine.settings.observer = previous.map { DependencyGraphObserverGroup($0, recorder) } ?? recorder
        var instances: [Int: Any] = [:]
        do {
            for node in declaredOrder {
                let entry = model.nodes[node].entry
                let object = try await run { try await engine.instanceFromAsyncCode(of: entry, .none) }
                instances[node] = entry.record.value(of: object)
            }
        } catch {
            engine.settings.observer = previous
            throw error
        }
        engine.settings.observer = previous
        let built = DependencyOrder(GraphModel(snapshot, names: names, observations: observed + [recorder]), selected: selected)
        return try Self.order(built, model).map { node in
            OrderedDependency(
                dependency: model.context(of: node), instance: instances[node]!,
                dependencies: built.dependencies[node]!.map(model.context(of:)))
        }
    }

    private static func order(_ order: DependencyOrder, _ model: GraphModel) throws -> [Int] {
        switch order.ordered() {
        case .success(let nodes): return nodes
        case .failure(let cycle): throw DependencyOrderFailure.cycle(cycle.path.map(model.context(of:)))
        }
    }
}
