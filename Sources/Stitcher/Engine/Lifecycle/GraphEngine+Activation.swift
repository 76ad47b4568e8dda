/// Activating and deactivating containers, releasing stored instances, and building eager
/// dependencies.
extension GraphEngine {
    // MARK: Activation

    /// Activates `container`, or makes it the most recently activated one if it is active,
    /// then instantiates its eager dependencies.
    ///
    /// With `replaced`, deactivates that container in the same step: a lookup sees either
    /// its registrations or the new container's, never neither.
    @discardableResult
    func activate(_ container: DependencyContainer, replacing replaced: DependencyContainer? = nil) -> [IndexEntry] {
        // Listen first, so that an invalidation while the registrations are built is seen.
        // The listener holds the graph strongly: the container calls it after releasing its
        // own lock, so a call in flight when the graph deactivates the container (or ends)
        // must still find the graph, which then ignores a container it no longer has. (Not
        // weak: a weak reference would give the graph a side table, making every retain on
        // the lookup path slower.) Deactivation removes the listener, breaking the cycle.
        container.addListener(owner: self) { [self] container in
            markInvalidated(container)
        }
        let (records, version) = container.versionedRegistrations()
        let (eager, removed): ([IndexEntry], ActiveContainer?) = mutate { leftovers in
            var removed: ActiveContainer?
            if let replaced, replaced !== container,
                let index = active.firstIndex(where: { $0.container === replaced })
            {
                invalidated[ObjectIdentifier(replaced)] = nil
                removed = active.remove(at: index)
                leftovers.retiring += removed!.entries
            }
            let existing = active.firstIndex { $0.container === container }
            let record = existing.map { active.remove(at: $0) } ?? ActiveContainer(container)
            record.load(records, graph: self, leftovers: &leftovers)
            active.append(record)
            invalidated[ObjectIdentifier(container)] = container.version == version ? nil : container
            publishLocked(&leftovers, added: existing == nil && removed == nil ? record : nil)
            return (eagerEntries(of: record), removed)
        }
        if let removed { unload(removed) }
        instantiateEagerly(eager)
        notifyChange()
        return eager
    }

    /// Stops listening to a container that left the graph and drops its registrations.
    func unload(_ removed: ActiveContainer) {
        removed.container.removeListener(owner: self)
        removed.unload()
    }

    /// Deactivates `container`, releasing every instance it stored.
    func deactivate(_ container: DependencyContainer) {
        let removed: ActiveContainer? = mutate(lettingGo: true) { leftovers in
            guard let index = active.firstIndex(where: { $0.container === container }) else { return nil }
            invalidated[ObjectIdentifier(container)] = nil
            let removed = active.remove(at: index)
            leftovers.retiring += removed.entries
            publishLocked(&leftovers)
            return removed
        }
        guard let removed else { return }
        unload(removed)
        notifyChange()
    }

    /// Deactivates every active container.
    func deactivateAll() {
        let removed: [ActiveContainer] = mutate(lettingGo: true) { leftovers in
            let removed = active
            active.removeAll()
            invalidated.removeAll()
            for container in removed { leftovers.retiring += container.entries }
            publishLocked(&leftovers)
            return removed
        }
        for container in removed { unload(container) }
        if !removed.isEmpty { notifyChange() }
    }

    /// Gives a managed registration a fresh entry, so its next injection builds a new instance.
    func resetManagedScope(of identity: IdentityKey, in record: ActiveContainer) {
        let changed: Bool = mutate(lettingGo: true) { leftovers in
            guard active.contains(where: { $0 === record }),
                let old = record.renewEntry(for: identity)
            else { return false }
            leftovers.retiring.append(old)
            publishLocked(&leftovers)
            return true
        }
        if changed { notifyChange() }
    }

    /// Drops every stored instance, keeping the registrations: each registration that stores
    /// instances gets a fresh entry, and the old ones retire (releasing their instances at
    /// once, whatever idle threads still cache them).
    func releaseInstances() {
        let changed: Bool = mutate(lettingGo: true) { leftovers in
            for record in active { leftovers.retiring += record.renewStoringEntries() }
            guard !leftovers.retiring.isEmpty else { return false }
            publishLocked(&leftovers)
            return true
        }
        if changed { notifyChange() }
    }

    /// Whether a container other than `container` is active, so that publishing the index
    /// will ask `container` which identities it registers. Caller holds `lock`.
    func hasActive(besides container: ActiveContainer) -> Bool {
        active.contains { $0 !== container }
    }

    /// Whether `container` is active in this graph.
    func isActive(_ container: DependencyContainer) -> Bool {
        lock.withLock { active.contains { $0.container === container } }
    }

    /// Drops weakly held instances that were released.
    func releaseUnusedStorage() {
        for entry in lock.withLock({ current.entries }) where entry.record.lifetime.entryKeeps == .weakly {
            entry.pruneReleasedInstances()
        }
    }

    func eagerEntries(of record: ActiveContainer) -> [IndexEntry] {
        current.entries.filter { entry in
            // One that needs an open scope (`.scoped`) has none to be built in at activation:
            // it is built in each scope when first injected.
            entry.record.eagerness == .eager && !entry.record.takesParameters
                && !entry.record.lifetime.needsOpenScope && entry.owner == ObjectIdentifier(record)
        }
    }

    /// Instantiates the eager dependencies whose factories can run here; asynchronous ones,
    /// and main-actor ones off the main thread, are instantiated by the `async` activation
    /// (or at their first injection).
    func instantiateEagerly(_ entries: [IndexEntry]) {
        for entry in entries where entry.record.runsSynchronouslyHere {
            do {
                _ = try instance(of: entry, .none, ThreadState.current)
            } catch {
                // The next injection of the dependency tries again and throws this error.
                #if DEBUG
                debugPrint("Stitcher: eager instantiation of \(entry.record.locator) failed: \(error)")
                #endif
            }
        }
    }

    /// The name of the active container that registers `entry`, in this graph or the graphs
    /// it is layered over (empty once it is deactivated).
    func containerName(of entry: IndexEntry) -> String {
        let own = lock.withLock { active.first { ObjectIdentifier($0) == entry.owner }?.container.name }
        return own ?? parent?.containerName(of: entry) ?? ""
    }

    /// The names of the active containers, in this graph and the graphs it is layered over (a
    /// dependency scope's overlay shows its parent's entries), by the identity their entries
    /// name as their owner.
    func containerNames() -> [ObjectIdentifier: String] {
        let own = lock.withLock { active.map { (ObjectIdentifier($0), $0.container.name) } }
        return (parent?.containerNames() ?? [:]).merging(own, uniquingKeysWith: { _, overlay in overlay })
    }
}
