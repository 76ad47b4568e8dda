/// Changes of the graph: each runs under `lock` and deals with what it replaced after the lock
/// is dropped (see `mutate`, and `RetirementTickets` for when a change that lets instances go
/// returns).
extension GraphEngine {
    /// What a mutation of the graph leaves behind, dealt with after the lock is dropped.
    struct Leftovers {
        /// What the mutation replaced (snapshots, entries, records), released last.
        var garbage: [Any] = []
        /// Entries that left the graph: their instances are released now, whichever threads
        /// still cache a snapshot that holds the entries themselves.
        var retiring: [IndexEntry] = []
        /// The arrays kept for the replaced index (`ElementArrays`), unpublished: retired
        /// through the hazard domain with the entries.
        var unpublished: [Unmanaged<AnyObject>] = []

        var isEmpty: Bool { garbage.isEmpty && retiring.isEmpty && unpublished.isEmpty }
    }

    /// Runs a mutation of the graph's state under `lock`.
    ///
    /// Whatever the mutation replaces goes into its leftovers and is released after the lock
    /// is dropped, so that deinitializers of user instances never run under it. The calling
    /// thread's snapshot cache is refreshed at once, so the old snapshot is not kept alive by
    /// the thread that changed the graph.
    ///
    /// - Parameter lettingGo: whether the change lets instances go (a deactivation, a reset,
    ///   `releaseInstances()`): it then returns only once the changes made before it have
    ///   released what they replaced too (see `RetirementTickets`).
    func mutate<R>(lettingGo: Bool = false, _ body: (inout Leftovers) -> R) -> R {
        defaults?.activateIfNeeded(in: self)
        // An overlay publishes the parent's entries: current ones.
        parent?.refreshIfStale()
        var leftovers = Leftovers()
        let (result, overlays, snapshot, ticket, bound) = lock.withLock {
            let result = body(&leftovers)
            let ticket = leftovers.isEmpty ? nil : retirements.take()
            return (result, self.overlays, current, ticket, retirements.bound)
        }
        for overlay in overlays { overlay.parentDidPublish() }
        let cache = ThreadState.current
        let previous = cache.snapshot
        cache.generation = snapshot.generation
        cache.snapshot = snapshot
        withExtendedLifetime(previous) {}
        if ticket != nil {
            // Deinitializers run from here; one that lets instances go must not wait for
            // this thread's own retirement.
            cache.retirementsInProgress += 1
            Self.retire(leftovers.retiring, with: leftovers.unpublished)
            leftovers.garbage.removeAll()
            cache.retirementsInProgress -= 1
        }
        let waits = lettingGo && cache.retirementsInProgress == 0
        if ticket != nil || waits { endRetirement(ticket, waitingBefore: waits ? bound : nil) }
        return result
    }

    /// Detaches and releases the instances of entries that left the graph, with `unpublished`
    /// (kept arrays a change unpublished): one barrier for all the objects that lock-free
    /// readers may be following.
    static func retire(_ entries: [IndexEntry], with unpublished: [Unmanaged<AnyObject>] = []) {
        var unpublished = unpublished
        if entries.isEmpty, unpublished.isEmpty { return }
        var released: [Any] = []
        for entry in entries { entry.retire(unpublished: &unpublished, released: &released) }
        runtime.hazards.retire(unpublished)
        released.removeAll()
    }
}
