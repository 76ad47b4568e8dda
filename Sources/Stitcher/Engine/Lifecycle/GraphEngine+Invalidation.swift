import Dispatch

/// Invalidated containers: marked when their sources announce a change, rebuilt by the next
/// lookup or shortly after, and their new registrations swapped in.
extension GraphEngine {
    // MARK: Invalidation

    /// Records that an active container was invalidated.
    ///
    /// Invalidation sources (Observation, `objectWillChange`, `@Published`) report changes
    /// before they are applied, so the builder is not re-run here. Instead every lookup is
    /// sent to the slow path, which rebuilds the container's registrations first: a lookup
    /// made after the change sees the new registrations. If no lookup comes, a background
    /// job rebuilds them shortly after, and tells observers of the graph.
    ///
    /// A lookup on another thread between the announcement and the change would rebuild
    /// from the old state; so the background job also runs the builder once more and
    /// publishes its result if it registers other lines.
    func markInvalidated(_ container: DependencyContainer) {
        let isNew: Bool = lock.withLock {
            guard active.contains(where: { $0.container === container }) else { return false }
            let isNew = invalidated.isEmpty
            invalidated[ObjectIdentifier(container)] = container
            publishedGeneration.store(
                Self.generations.wrappingIncrementThenLoad(ordering: .relaxed), ordering: .releasing)
            return isNew
        }
        guard isNew else { return }
        // Delayed: the change being announced is applied right after the announcement
        // returns, and a rebuild that ran first would read the old state. Lookups made in
        // the meantime rebuild by themselves.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { [self, weak container] in
            // Observers notified from here resolve in this graph, not the process-wide one.
            GraphContext.run(graph: self, scope: nil) {
                self.rebuildInvalidatedContainers()
                if let container { self.confirm(container) }
            }
        }
    }

    /// Re-runs the builder of an active container and publishes its registrations if they
    /// come from other lines than the active ones.
    func confirm(_ container: DependencyContainer) {
        rebuilding.withLock {
            guard lock.withLock({ active.contains { $0.container === container } }) else { return }
            publish(container.refreshedRegistrations(), of: container, onlyIfOtherLines: true)
        }
    }

    /// Re-runs the builders of invalidated containers and publishes the new index.
    ///
    /// A container leaves the invalidated set only when its new index is published, so
    /// lookups racing with the rebuild wait for it (on `rebuilding`) instead of reading the
    /// stale index.
    func rebuildInvalidatedContainers() {
        rebuilding.withLock {
            var rounds = 0
            while rounds < 16 {
                let containers: [DependencyContainer] = lock.withLock { Array(invalidated.values) }
                if containers.isEmpty { return }
                for container in containers { reload(container) }
                rounds += 1
            }
        }
    }

    /// Re-runs an invalidated container's builder and swaps in its new registrations.
    func reload(_ container: DependencyContainer) {
        publish(container.versionedRegistrations(), of: container, onlyIfOtherLines: false)
    }

    /// Swaps in new registrations of an active container, publishes the index and tells
    /// observers; with `onlyIfOtherLines`, nothing happens when they come from the same
    /// builder lines as the active ones.
    func publish(
        _ registrations: (records: [RegistrationRecord], version: Int),
        of container: DependencyContainer,
        onlyIfOtherLines: Bool
    ) {
        let (records, version) = registrations
        let eager: [IndexEntry]? = mutate { leftovers in
            guard let record = active.first(where: { $0.container === container }) else { return nil }
            if onlyIfOtherLines, record.records.count == records.count,
                zip(record.records, records).allSatisfy({ $0.comesFromSameLine(as: $1) })
            {
                return nil
            }
            // Still invalidated unless no invalidation came after these registrations.
            if container.version == version { invalidated[ObjectIdentifier(container)] = nil }
            record.load(records, graph: self, leftovers: &leftovers)
            publishLocked(&leftovers)
            return eagerEntries(of: record)
        }
        guard let eager else { return }
        instantiateEagerly(eager)
        notifyChange()
    }
}
