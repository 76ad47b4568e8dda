/// Checking the graph without building it, and optionally building it in a sandbox.
extension GraphEngine {
    /// The model of the current index, with the edges `options` name or the graph's recorder
    /// observed, and what the verifier finds in it.
    func inspection(_ options: DependencyGraph.VerificationOptions) -> (model: GraphModel, findings: [GraphProblem]) {
        let snapshot = snapshot()
        let recorder = options.observations ?? settings.observer?.edgeRecorder
        // A child graph is checked with its ancestry: its index lists the ancestors' entries,
        // and what they store is built from the parent's index.
        let own = isChild ? lock.withLock { Set(active.map(ObjectIdentifier.init)) } : nil
        let parentSnapshot = isChild ? parent.map { parent in parent.lock.withLock { parent.current } } : nil
        let model = GraphModel(snapshot, names: containerNames(), observations: recorder.map { [$0] } ?? [], own: own)
        return (model, GraphVerifier(model: model, snapshot: snapshot, parentSnapshot: parentSnapshot).findings())
    }

    /// What `verify()` reports: the verifier's findings, and with `instantiatesFactories`,
    /// the failures of factories built synchronously in a sandbox.
    func verification(_ options: DependencyGraph.VerificationOptions) -> GraphVerificationReport {
        let (model, findings) = inspection(options)
        let outcome = options.instantiatesFactories ? GraphSandbox(model, settings: settings).buildSynchronously() : nil
        return report(model, findings, outcome)
    }

    /// `verification(_:)`, awaiting asynchronous factories and running main-actor ones there.
    func verificationAwaiting(_ options: DependencyGraph.VerificationOptions) async -> GraphVerificationReport {
        let (model, findings) = inspection(options)
        let outcome = options.instantiatesFactories ? await GraphSandbox(model, settings: settings).buildAwaiting() : nil
        return report(model, findings, outcome)
    }

    /// The findings and what building found, if anything was built: a registration the
    /// verifier already found a problem in is not reported again for its factory's failure.
    private func report(_ model: GraphModel, _ findings: [GraphProblem], _ outcome: GraphSandbox.Outcome?) -> GraphVerificationReport {
        guard let outcome else { return GraphVerificationReport(registrationCount: model.nodes.count, findings: findings) }
        let known = Set(findings.filter { !$0.isNote }.map { $0.nodes[0] })
        return GraphVerificationReport(
            registrationCount: model.nodes.count,
            findings: findings + outcome.problems.filter { !known.contains($0.nodes[0]) },
            instantiatedCount: outcome.built,
            notInstantiated: outcome.skipped.map(model.context(of:)))
    }

    /// The picture of the current index and what the verifier finds in it.
    func picture(_ options: DependencyGraph.VerificationOptions) -> GraphPicture {
        let (model, findings) = inspection(options)
        return GraphPicture(model: model, findings: findings)
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
