/// Graphs layered over a graph for the dependency scopes given a container: each shows the
/// graph's registrations except those its own containers override, and follows the graph's
/// changes while the scope is open.
extension GraphEngine {
    /// The current index, read under the lock (by an overlay's publication).
    func lockedSnapshot() -> IndexSnapshot {
        lock.withLock { current }
    }

    /// The parent's entries not overridden by this graph's containers, then this graph's
    /// own (the later activated winning, as in any graph). Caller holds `lock`.
    func overlaid(_ inherited: [IndexEntry]) -> [IndexEntry] {
        parentChanged = false
        var entries = inherited.filter { entry in !active.contains { $0.registers(entry.record) } }
        for (containerIndex, container) in active.enumerated() {
            let later = active[(containerIndex + 1)...]
            entries += container.entries.filter { entry in !later.contains { $0.registers(entry.record) } }
        }
        return entries
    }

    /// Sends this overlay's lookups to the slow path until it merges the parent's new index,
    /// and tells the graphs layered over it in turn (a child graph's own children).
    func parentDidPublish() {
        var unpublished: [Unmanaged<AnyObject>] = []
        let overlays = lock.withLock {
            parentChanged = true
            // The parent's entries this index lists may have left the graph: arrays of their
            // singletons are not kept until the index is merged again.
            unpublishKeptArrays(into: &unpublished)
            publishedGeneration.store(Self.generations.wrappingIncrementThenLoad(ordering: .relaxed), ordering: .releasing)
            return self.overlays
        }
        runtime.hazards.retire(unpublished)
        for overlay in overlays { overlay.parentDidPublish() }
    }

    /// Merges what the graphs this one is layered over published since it last did, so that
    /// a graph layered over this one reads its current entries (`lockedSnapshot()`).
    func refreshIfStale() {
        if lock.withLock({ !invalidated.isEmpty || parentChanged }) { _ = snapshot() }
    }

    /// A graph for a dependency scope given `container`: layered over this one, which tells it
    /// of every index it publishes until `endOverlay()`.
    func makeOverlay() -> GraphEngine {
        let overlay = GraphEngine(settings: settings, parent: self)
        lock.withLock { overlays.append(overlay) }
        return overlay
    }

    /// Ends an overlay made by `makeOverlay()`: deactivates its containers, stops telling it
    /// of changes.
    func endOverlay() {
        deactivateAll()
        parent?.lock.withLock { parent?.overlays.removeAll { $0 === self } }
    }
}
