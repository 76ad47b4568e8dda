/// Checking the graph without building it, and optionally building it in a sandbox.
extension GraphEngine {
    /// The model of the current index, with the edges `options` name or the graph's
    /// recorder observed.
    func model(_ options: DependencyGraph.VerificationOptions) -> (GraphModel, IndexSnapshot) {
        let snapshot = snapshot()
        let recorder = options.observations ?? settings.observer?.edgeRecorder
        return (GraphModel(snapshot, observations: recorder.map { [$0] } ?? []), snapshot)
    }

    /// What `verify()` reports: the verifier's findings, and with `instantiatesFactories`,
    /// the failures of factories built synchronously in a sandbox.
    func verification(_ options: DependencyGraph.VerificationOptions) -> GraphVerificationReport {
        let (model, snapshot) = model(options)
        let findings = GraphVerifier(model: model, snapshot: snapshot).findings()
        guard options.instantiatesFactories else {
            return GraphVerificationReport(registrationCount: model.nodes.count, findings: findings)
        }
        return report(model, findings, GraphSandbox(model, settings: settings).buildSynchronously())
    }

    /// `verification(_:)`, awaiting asynchronous factories and running main-actor ones there.
    func verificationAwaiting(_ options: DependencyGraph.VerificationOptions) async -> GraphVerificationReport {
        let (model, snapshot) = model(options)
        let findings = GraphVerifier(model: model, snapshot: snapshot).findings()
        guard options.instantiatesFactories else {
            return GraphVerificationReport(registrationCount: model.nodes.count, findings: findings)
        }
        return report(model, findings, await GraphSandbox(model, settings: settings).buildAwaiting())
    }

    /// The findings and what building found, a registration the verifier already found a
    /// problem in not reported again for its factory's failure.
    private func report(_ model: GraphModel, _ findings: [GraphProblem], _ outcome: GraphSandbox.Outcome) -> GraphVerificationReport {
        let known = Set(findings.filter { !$0.isNote }.map { $0.nodes[0] })
        return GraphVerificationReport(
            registrationCount: model.nodes.count,
            findings: findings + outcome.problems.filter { !known.contains($0.nodes[0]) },
            instantiatedCount: outcome.built,
            notInstantiated: outcome.skipped.map(model.context(of:)))
    }
}

extension GraphEngine {
    /// The picture of the current index and what the verifier finds in it.
    func picture(_ options: DependencyGraph.VerificationOptions) -> GraphPicture {
        let (model, snapshot) = model(options)
        return GraphPicture(model: model, findings: GraphVerifier(model: model, snapshot: snapshot).findings())
    }
}

extension GraphPicture {
    func render(_ format: GraphExportFormat) -> String {
        switch format {
        case .dot: dot()
        case .mermaid: mermaid()
        }
    }
}
