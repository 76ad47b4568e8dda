/// Builds registrations in a throwaway graph, to find the failures their factories hide
/// (``DependencyGraph/VerificationOptions/instantiatesFactories``).
///
/// The throwaway graph holds fresh entries of the graph's registrations, in one dependency
/// scope: what it builds is kept only until verification ends, and the graph's own entries
/// are never written. A singleton or shared dependency the graph already holds is read
/// from it instead of built again, so an eager dependency's side effects do not run twice.
struct GraphSandbox {
    private let model: GraphModel
    private let graph: GraphEngine
    private let entries: [IndexEntry]
    private let failures = FailureLog()

    init(_ model: GraphModel, settings: GraphSettings) {
        self.model = model
        var entries = model.nodes.map { $0.entry.sandboxCopy() }
        // A decoration's entry decorates the copy of what it decorates, never the graph's own.
        var decorations: IndexDecorations?
        if let applied = model.decorations {
            var copied = IndexDecorations()
            for (index, node) in model.nodes.enumerated() {
                guard let (original, key) = applied.original(of: node.entry), let decorated = model.position(of: original) else { continue }
                entries[index] = node.entry.sandboxCopy(as: key.deriving(from: entries[decorated]))
                copied.add(entries[index], decorating: entries[decorated], by: key)
            }
            decorations = copied
        }
        self.entries = entries
        graph = GraphEngine()
        graph.settings.overrides = settings.overrides
        graph.settings.observer = failures
        graph.mutate { graph.install(entries, decorations: decorations, &$0) }
    }

    /// What building found: a problem per failing factory (the innermost one that threw),
    /// how many were built, and those that could not be built here.
    struct Outcome {
        var problems: [GraphProblem] = []
        var built = 0
        var skipped: [Int] = []
    }

    /// Builds every registration without parameters whose factory runs synchronously here.
    func buildSynchronously() -> Outcome {
        var outcome = Outcome()
        let scope = OpenScope(over: graph, in: nil, container: nil)
        GraphContext.run(graph: graph, scope: scope.store) {
            for node in model.nodes.indices where canBuild(node, &outcome) {
                guard entries[node].record.runsSynchronouslyHere else {
                    outcome.skipped.append(node)
                    continue
                }
                let error = failures.first { _ = try graph.instance(of: entries[node], .none, ThreadState.current) }
                record(error, of: node, in: &outcome)
            }
        }
        // Teardown failures of what verification built are not the graph's problems.
        _ = try? scope.run {}
        end()
        return outcome
    }

    /// Builds every registration without parameters, awaiting asynchronous factories and
    /// running main-actor ones there.
    func buildAwaiting() async -> Outcome {
        var outcome = Outcome()
        let scope = OpenScope(over: graph, in: nil, container: nil)
        await GraphContext.run(graph: graph, scope: scope.store) {
            for node in model.nodes.indices where canBuild(node, &outcome) {
                let entry = entries[node]
                let error = await failures.first { _ = try await graph.instanceFromAsyncCode(of: entry, .none) }
                record(error, of: node, in: &outcome)
            }
        }
        _ = try? await scope.run { () async in }
        end()
        return outcome
    }

    /// Retires every entry, releasing what was built.
    private func end() {
        graph.settings.observer = nil
        var unpublished: [Unmanaged<AnyObject>] = []
        graph.lock.withLock { graph.unpublishKeptArrays(into: &unpublished) }
        GraphEngine.retire(entries, with: unpublished)
    }

    /// Whether verification builds `node`: not when it takes parameters.
    private func canBuild(_ node: Int, _ outcome: inout Outcome) -> Bool {
        if entries[node].record.takesParameters {
            outcome.skipped.append(node)
            return false
        }
        return true
    }

    private func record(_ failure: FailureLog.Failure?, of node: Int, in outcome: inout Outcome) {
        outcome.built += 1
        guard let failure else { return }
        // Reported once, by the registration whose own factory threw first.
        if let origin = failure.origin, origin != model.context(of: node),
            model.nodes.contains(where: { $0.record.locator.context == origin && !$0.record.takesParameters })
        {
            return
        }
        outcome.problems.append(GraphProblem(failingFactory: node, in: model, error: failure.error, neededBy: []))
    }
}

/// The observer of a sandbox: the first failure of each build, which is the innermost
/// factory that threw (failures are reported innermost first).
private final class FailureLog: DependencyGraphObserver, @unchecked Sendable {
    struct Failure {
        let origin: InjectionError.DependencyContext?
        let error: any Error
    }

    private let lock = Lock()
    private var first: Failure?

    /// Runs `build`, returning the first failure reported during it, or the error it threw.
    func first(_ build: () throws -> Void) -> Failure? {
        lock.withLock { first = nil }
        do {
            try build()
            return nil
        } catch {
            return lock.withLock { first } ?? Failure(origin: nil, error: error)
        }
    }

    func first(_ build: () async throws -> Void) async -> Failure? {
        lock.withLock { first = nil }
        do {
            try await build()
            return nil
        } catch {
            return lock.withLock { first } ?? Failure(origin: nil, error: error)
        }
    }

    func didFail(_ event: DependencyGraphEvent.ResolutionFailed) {
        lock.withLock { if first == nil { first = Failure(origin: event.dependency, error: event.error) } }
    }
}

extension IndexEntry {
    /// A fresh entry for the same registration, holding the singleton or shared instance
    /// (without parameters) this one holds, if any; nothing else is shared with this entry.
    func sandboxCopy(as record: RegistrationRecord? = nil) -> IndexEntry {
        let copy = IndexEntry.make(record: record ?? self.record, owner: owner)
        let record = self.record
        guard let keeping = record.lifetime.entryKeeps, !record.takesParameters else { return copy }
        let strongly = keeping == .strongly
        guard let instance = lock.withLock({ storedInstance(for: .empty, strongly: strongly, record) }) else { return copy }
        copy.lock.withLock { _ = copy.store(instance, for: .empty, strongly: strongly, record) }
        return copy
    }
}
