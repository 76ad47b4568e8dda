import Foundation

/// Child graphs (`DependencyGraph.Context.child()`): a graph layered over a parent for as long
/// as a signed-in user, a document or a feature flow lasts. It resolves from its own
/// containers first, then from its ancestors', at every level of a build; it stores what its
/// own registrations keep, and tears it down when it ends.
///
/// **Where an ancestor's instance is built.** An instance an ancestor stores (a singleton, a
/// shared one) outlives the child, so it is built in that ancestor, with the ancestor as the
/// current graph: its dependencies are the ancestor's, whichever child asked first, and
/// activating or deactivating in a child never changes what the ancestor resolves. A
/// dependency that only the child registers is then missing there: reported as the captive
/// dependency it would be (`DependencyScopeError.Reason.capturesChildDependency`).
/// Transient and `.scoped` registrations are built where they are asked for.
extension GraphEngine {
    /// A child graph of this one, told of every index this one publishes until it ends.
    func makeChild() -> GraphEngine {
        // The process-wide graph activates a declared default container on first use.
        _ = snapshot()
        let childSettings = GraphSettings()
        childSettings.overrides = settings.overrides
        let child = GraphEngine(settings: childSettings, parent: self, isChild: true)
        lock.withLock { overlays.append(child) }
        // Its first lookup merges this graph's registrations.
        child.parentDidPublish()
        return child
    }

    /// The ancestor whose active containers registered `entry`, which builds the instances
    /// it stores; nil when this graph registered it, or is no child graph.
    func ancestor(owning entry: IndexEntry) -> GraphEngine? {
        guard isChild else { return nil }
        var graph = self
        while graph.isChild, !graph.registers(entry) {
            guard let parent = graph.parent else { return nil }
            graph = parent
        }
        return graph === self ? nil : graph
    }

    /// Whether one of this graph's own active containers registered `entry`.
    private func registers(_ entry: IndexEntry) -> Bool {
        lock.withLock { active.contains { ObjectIdentifier($0) == entry.owner } }
    }

    /// Runs `build` (the build of an instance this graph stores, asked for by `child`) with
    /// this graph current and the child named as the one it is built for.
    func build<R>(for child: GraphEngine, _ state: ThreadState, _ build: () throws -> R) throws -> R {
        try ChildGraphBuild.$requestedBy.withValue(child) {
            try GraphContext.run(graph: self, scope: GraphContext.scope(on: state), build)
        }
    }

    /// `build(for:_:_:)` for an asynchronous build.
    func build<R>(
        for child: GraphEngine, isolation: isolated (any Actor)? = #isolation, _ build: () async throws -> R
    ) async throws -> R {
        try await ChildGraphBuild.$requestedBy.withValue(child) {
            try await GraphContext.run(graph: self, scope: GraphContext.scope, isolation: isolation, build)
        }
    }

    /// The error for a request nothing in this graph answers, made while an instance this
    /// graph stores is built for a child graph that registers it: the instance would keep
    /// the child's. Nil otherwise.
    func childDependencyCaptured(_ key: LookupKey, _ arguments: InjectionArguments, _ state: ThreadState) -> DependencyScopeError? {
        guard let child = ChildGraphBuild.requestedBy,
            let candidates = child.lockedSnapshot().entries(for: key)?.entries,
            let entry = candidates.first(where: { $0.record.accepts(arguments) }),
            let holder = state.frames.last(where: { $0.lifetime.entryKeeps != nil })?.entry.record
                // An asynchronous build pushes no frame: its path is the task's.
                ?? inheritedResolution(state)?.current.last(where: { $0.record.lifetime.entryKeeps != nil })?.record
        else { return nil }
        let reason = DependencyScopeError.Reason.capturesChildDependency(
            holder: holder.locator.context, holderScope: holder.scope.description)
        let error = DependencyScopeError(reason: reason, requested: entry.record.locator.context, chain: path(to: entry, state))
        report(.failed(error.requested, parent: error.chain.dropLast().last, error))
        return error
    }

    /// Ends this graph: its child graphs first, then the instances its own registrations keep
    /// strongly are torn down (dependents first), its containers deactivated and its
    /// instances released; a child graph leaves its parent and resolves nothing any more.
    /// Once only.
    func end() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for child in lock.withLock({ overlays.filter(\.isChild) }) { child.end() }
        tearDownStoredInstances()
        deactivateAll()
        guard isChild, let parent else { return }
        parent.lock.withLock { parent.overlays.removeAll { $0 === self } }
        mutate(lettingGo: true) { leftovers in
            parentChanged = false
            install([], &leftovers)
        }
    }

    /// Calls `tearDown()` on each instance this graph's own registrations keep strongly that
    /// asks for it, dependents before their dependencies (as far as declarations tell;
    /// otherwise the later registration first). An asynchronous-only teardown is started in
    /// a task. Failures go to the observer, or to standard error when there is none.
    private func tearDownStoredInstances() {
        let (snapshot, owners) = lock.withLock { (current, Set(active.map(ObjectIdentifier.init))) }
        // The instances that ask for a teardown first (usually few, whatever the graph's
        // size): the order is worked out among them only.
        var teardowns: [ObjectIdentifier: [(instance: AnyObject, witness: TeardownWitness)]] = [:]
        for entry in snapshot.entries where owners.contains(entry.owner) && entry.record.lifetime.entryKeeps == .strongly {
            for instance in entry.stronglyKeptInstances() {
                guard let witness = TeardownWitness.checking(entry.record.value(of: instance)) else { continue }
                teardowns[ObjectIdentifier(entry), default: []].append((instance, witness))
            }
        }
        if teardowns.isEmpty { return }
        let model = GraphModel(snapshot, names: [:], observations: [])
        let kept = model.nodes.indices.filter { teardowns[ObjectIdentifier(model.nodes[$0].entry)] != nil }
        let order: [Int] =
            switch DependencyOrder(model, selected: kept).ordered() {
            case .success(let order): order.reversed()
            case .failure: kept.reversed()
            }
        var failures: [ScopeTeardownError.Failure] = []
        for node in order {
            let dependency = model.nodes[node].record.locator.context
            for (instance, witness) in teardowns[ObjectIdentifier(model.nodes[node].entry)] ?? [] {
                if witness.hasSynchronous {
                    do {
                        try witness.tearDownSynchronously(instance)
                        report(.tornDown(dependency, scope: nil, error: nil))
                    } catch {
                        report(.tornDown(dependency, scope: nil, error: error))
                        failures.append(.init(dependency: dependency, error: error))
                    }
                } else if let asynchronous = witness.asynchronous {
                    let instance = UncheckedSendable(instance)
                    Task { [self] in
                        do {
                            try await asynchronous(instance.value)
                            report(.tornDown(dependency, scope: nil, error: nil))
                        } catch {
                            report(.tornDown(dependency, scope: nil, error: error))
                        }
                    }
                }
            }
        }
        guard !failures.isEmpty, !(mayBeObserved && settings.observer != nil) else { return }
        let message =
            "Stitcher: \(failures.count) teardown(s) failed when a dependency graph ended: "
            + failures.map(\.description).joined(separator: "; ") + "\n"
        FileHandle.standardError.write(Data(message.utf8))
    }
}

/// The child graph an ancestor's instance is being built for, bound for the build (and the
/// tasks it starts): read only when a request finds nothing, to tell a captive dependency
/// from a missing one.
enum ChildGraphBuild {
    @TaskLocal static var requestedBy: GraphEngine?
}
