import Atomics
import Dispatch
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// One dependency graph: the active containers, their stored instances and the published
/// index snapshot.
///
/// `DependencyGraph`'s static API forwards to the process-wide graph, or to the isolated
/// graph of the current task (see ``DependencyGraph/withIsolatedGraph(_:)-4m1x2``).
/// All mutation happens under `lock`, which is never held while user code runs.
final class GraphEngine: @unchecked Sendable {
    private let lock = Lock()
    private var active: [ActiveContainer] = []
    private var current = IndexSnapshot.empty
    /// Active containers invalidated since the index was last built.
    private var invalidated: [ObjectIdentifier: DependencyContainer] = [:]
    /// Held while invalidated containers are rebuilt, so that a lookup racing with the
    /// rebuild waits for its result instead of reading the stale index. Recursive: a
    /// builder may inject dependencies.
    private let rebuilding = Lock(recursive: true)
    /// The generation of the snapshot lookups must read (see `ThreadState`).
    let publishedGeneration: UnsafeAtomic<Int>
    private let generationStorage = CacheLine.allocate(Int.AtomicRepresentation(0))
    /// The observer and configuration this graph sets for itself.
    let settings: GraphSettings
    /// What keeps a graph made by `Context.isolated()` alive (weak: it owns the graph).
    weak var heldBy: HeldGraph?
    /// For the graph of a dependency scope given a container: the graph it is layered over,
    /// whose registrations it shows except those its own containers override.
    let parent: GraphEngine?
    /// Scope graphs layered over this one, told when it publishes a new index.
    private var overlays: [GraphEngine] = []
    /// Whether the parent published an index this graph has not merged yet.
    private var parentChanged = false
    let changes = PassthroughSubject<Void, Never>()
    let changeStream = GraphChangeBroadcast()

    /// Generations are unique across every graph, so a thread's snapshot cache can tell
    /// graphs apart by generation alone.
    private static let generations = ManagedAtomic<Int>(0)

    init(settings: GraphSettings = GraphSettings(), parent: GraphEngine? = nil) {
        self.settings = settings
        self.parent = parent
        publishedGeneration = UnsafeAtomic(at: generationStorage)
    }

    deinit {
        for record in active { record.container.removeListener(owner: self) }
        CacheLine.deallocate(generationStorage)
    }

    // MARK: Snapshot

    /// The current index snapshot, read without taking a lock when the calling thread
    /// already cached it.
    @inline(__always)
    func snapshot() -> IndexSnapshot {
        snapshot(state: ThreadState.current)
    }

    /// The current index snapshot, cached in `state`.
    @inline(__always)
    func snapshot(state cache: ThreadState) -> IndexSnapshot {
        let generation = publishedGeneration.load(ordering: .acquiring)
        if cache.generation == generation, let snapshot = cache.snapshot {
            return snapshot
        }
        var (snapshot, isStale) = lock.withLock { (current, !invalidated.isEmpty || parentChanged) }
        if isStale {
            rebuildInvalidatedContainers()
            mutate { leftovers in if parentChanged { publishLocked(&leftovers) } }
            snapshot = lock.withLock { current }
        }
        // While containers are invalidated the published generation differs from every
        // snapshot's, so each lookup comes here until they are rebuilt.
        cache.generation = snapshot.generation
        cache.snapshot = snapshot
        return snapshot
    }

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
    private func confirm(_ container: DependencyContainer) {
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
    private func rebuildInvalidatedContainers() {
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

    /// What a mutation of the graph leaves behind, dealt with after the lock is dropped.
    struct Leftovers {
        /// What the mutation replaced (snapshots, entries, records), released last.
        var garbage: [Any] = []
        /// Entries that left the graph: their instances are released now, whichever threads
        /// still cache a snapshot that holds the entries themselves.
        var retiring: [IndexEntry] = []
    }

    /// Runs a mutation of the graph's state under `lock`.
    ///
    /// Whatever the mutation replaces goes into its leftovers and is released after the lock
    /// is dropped, so that deinitializers of user instances never run under it. The calling
    /// thread's snapshot cache is refreshed at once, so the old snapshot is not kept alive by
    /// the thread that changed the graph.
    private func mutate<R>(_ body: (inout Leftovers) -> R) -> R {
        var leftovers = Leftovers()
        let (result, overlays) = lock.withLock { (body(&leftovers), self.overlays) }
        for overlay in overlays { overlay.parentDidPublish() }
        let cache = ThreadState.current
        let snapshot = lock.withLock { current }
        let previous = cache.snapshot
        cache.generation = snapshot.generation
        cache.snapshot = snapshot
        withExtendedLifetime(previous) {}
        Self.retire(leftovers.retiring)
        leftovers.garbage.removeAll()
        return result
    }

    /// Detaches and releases the instances of entries that left the graph: one barrier for
    /// all the instances that lock-free readers may be following.
    static func retire(_ entries: [IndexEntry]) {
        if entries.isEmpty { return }
        var unpublished: [Unmanaged<AnyObject>] = []
        var released: [Any] = []
        for entry in entries { entry.retire(unpublished: &unpublished, released: &released) }
        runtime.hazards.retire(unpublished)
        released.removeAll()
    }

    /// Rebuilds the index from the active containers and publishes it. Caller holds `lock`.
    private func publishLocked(_ leftovers: inout Leftovers) {
        let generation = Self.generations.wrappingIncrementThenLoad(ordering: .relaxed)
        // Each container already settled its own duplicates; across containers, the later
        // activated one wins.
        var entries: [IndexEntry]
        if let parent {
            entries = overlaid(parent.lockedEntries())
        } else if active.count == 1 {
            // Shares the container's storage: no copy.
            entries = active[0].entries
        } else {
            entries = []
            entries.reserveCapacity(active.reduce(0) { $0 + $1.entries.count })
            // A registration wins unless a later container registers its identity: looked up
            // in the later containers' own tables, so the last (often largest) container's
            // registrations cost no lookup at all.
            for (containerIndex, container) in active.enumerated() {
                let later = active[(containerIndex + 1)...]
                for entry in container.entries {
                    let record = entry.record
                    guard !later.contains(where: { $0.registers(record) }) else { continue }
                    entries.append(entry)
                }
            }
        }
        leftovers.garbage.append(current)
        current = IndexSnapshot(
            generation: generation,
            entries: entries,
            indexed: settings.isIndexingEnabled,
            capacity: max(settings.approximateDependencyCount, entries.count)
        )
        // While containers wait to be rebuilt, lookups must keep taking the slow path.
        publishedGeneration.store(
            invalidated.isEmpty && !parentChanged ? generation : Self.generations.wrappingIncrementThenLoad(ordering: .relaxed),
            ordering: .releasing)
    }

    /// The entries of the current index, read under the lock (by an overlay's publication).
    private func lockedEntries() -> [IndexEntry] {
        lock.withLock { current.entries }
    }

    /// The parent's entries not overridden by this graph's containers, then this graph's
    /// own (the later activated winning, as in any graph). Caller holds `lock`.
    private func overlaid(_ inherited: [IndexEntry]) -> [IndexEntry] {
        parentChanged = false
        var entries = inherited.filter { entry in !active.contains { $0.registers(entry.record) } }
        for (containerIndex, container) in active.enumerated() {
            let later = active[(containerIndex + 1)...]
            entries += container.entries.filter { entry in !later.contains { $0.registers(entry.record) } }
        }
        return entries
    }

    /// Sends this overlay's lookups to the slow path until it merges the parent's new index.
    private func parentDidPublish() {
        lock.withLock {
            parentChanged = true
            publishedGeneration.store(Self.generations.wrappingIncrementThenLoad(ordering: .relaxed), ordering: .releasing)
        }
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

    private func notifyChange() {
        if settings.autoCleanupEnabled { releaseUnusedStorage() }
        changes.send(())
        changeStream.yield()
    }

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
               let index = active.firstIndex(where: { $0.container === replaced }) {
                invalidated[ObjectIdentifier(replaced)] = nil
                removed = active.remove(at: index)
                leftovers.retiring += removed!.entries
            }
            let existing = active.firstIndex { $0.container === container }
            let record = existing.map { active.remove(at: $0) } ?? ActiveContainer(container)
            record.load(records, graph: self, leftovers: &leftovers)
            active.append(record)
            invalidated[ObjectIdentifier(container)] = container.version == version ? nil : container
            publishLocked(&leftovers)
            return (eagerEntries(of: record), removed)
        }
        if let removed { unload(removed) }
        instantiateEagerly(eager)
        notifyChange()
        return eager
    }

    /// Stops listening to a container that left the graph and drops its registrations.
    private func unload(_ removed: ActiveContainer) {
        removed.container.removeListener(owner: self)
        removed.unload()
    }

    /// Deactivates `container`, releasing every instance it stored.
    func deactivate(_ container: DependencyContainer) {
        let removed: ActiveContainer? = mutate { leftovers in
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
        let removed: [ActiveContainer] = mutate { leftovers in
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

    /// Re-runs an invalidated container's builder and swaps in its new registrations.
    func reload(_ container: DependencyContainer) {
        publish(container.versionedRegistrations(), of: container, onlyIfOtherLines: false)
    }

    /// Swaps in new registrations of an active container, publishes the index and tells
    /// observers; with `onlyIfOtherLines`, nothing happens when they come from the same
    /// builder lines as the active ones.
    private func publish(
        _ registrations: (records: [RegistrationRecord], version: Int),
        of container: DependencyContainer,
        onlyIfOtherLines: Bool
    ) {
        let (records, version) = registrations
        let eager: [IndexEntry]? = mutate { leftovers in
            guard let record = active.first(where: { $0.container === container }) else { return nil }
            if onlyIfOtherLines, record.records.count == records.count,
               zip(record.records, records).allSatisfy({ $0.comesFromSameLine(as: $1) }) {
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

    /// Gives a managed registration a fresh entry, so its next injection builds a new instance.
    func resetManagedScope(of identity: IdentityKey, in record: ActiveContainer) {
        let changed: Bool = mutate { leftovers in
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
        let changed: Bool = mutate { leftovers in
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
        // Only the shared scope holds instances weakly.
        for entry in lock.withLock({ current.entries }) where entry.record.lifetime == .shared {
            entry.pruneReleasedInstances()
        }
    }

    private func eagerEntries(of record: ActiveContainer) -> [IndexEntry] {
        current.entries.filter { entry in
            // A `.scoped` one has no scope to be built in at activation: it is built in each
            // scope when first injected.
            entry.record.eagerness == .eager && !entry.record.takesParameters
                && entry.record.lifetime != .scoped && entry.owner == ObjectIdentifier(record)
        }
    }

    /// Instantiates the eager dependencies whose factories can run here; asynchronous ones,
    /// and main-actor ones off the main thread, are instantiated by the `async` activation
    /// (or at their first injection).
    private func instantiateEagerly(_ entries: [IndexEntry]) {
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
}
