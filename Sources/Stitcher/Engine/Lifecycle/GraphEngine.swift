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
/// `DependencyGraph`'s static API forwards to the process-wide graph, or to the graph bound
/// to the current task (`GraphContext`). All mutation happens under `lock`, which is never
/// held while user code runs.
///
/// The engine is split by responsibility: this file publishes index snapshots; `+Changes`
/// runs a change under the lock and retires what it replaced; `+Activation` and
/// `+Invalidation` change the active containers; `+Overlays` layers scope graphs over this
/// one; resolution lives in `Engine/Resolution`, where `+Instances` is the one place that
/// decides how an instance is reached.
final class GraphEngine: @unchecked Sendable {
    let lock = Lock()
    var active: [ActiveContainer] = []
    var current = IndexSnapshot.empty
    /// Whether `current` indexes exactly the active containers' registrations (as
    /// `publishLocked` built it), so that a container activated after them can be added to
    /// it (`IndexSnapshot.adding`); false after an index was installed from other entries.
    var currentIndexesActive = false
    /// Active containers invalidated since the index was last built.
    var invalidated: [ObjectIdentifier: DependencyContainer] = [:]
    /// Held while invalidated containers are rebuilt, so that a lookup racing with the
    /// rebuild waits for its result instead of reading the stale index. Recursive: a
    /// builder may inject dependencies.
    let rebuilding = Lock(recursive: true)
    /// The generation of the snapshot lookups must read (see `ThreadState`).
    let publishedGeneration: UnsafeAtomic<Int>
    /// The arrays of singletons kept for the current index (`ElementArrays`), made by the
    /// first array kept: nil (and nothing allocated) in a graph that never answers one.
    /// Written once, under `lock`; freed with the graph, which readers hold.
    private let keptArraysWord: UnsafeAtomic<UnsafeMutableRawPointer?>
    /// The two words above, alone on a cache line that every lookup reads: the second is
    /// written once.
    private struct Words {
        var generation: UnsafeAtomic<Int>.Storage
        var keptArrays: UnsafeAtomic<UnsafeMutableRawPointer?>.Storage
    }
    private let words = CacheLine.allocate(Words(generation: .init(0), keptArrays: .init(nil)))
    /// The observer and configuration this graph sets for itself.
    let settings: GraphSettings
    /// What keeps a graph made by `Context.isolated()` alive (weak: it owns the graph).
    weak var heldBy: HeldGraph?
    /// For the graph of a dependency scope given a container, or a child graph: the graph it
    /// is layered over, whose registrations it shows except those its own containers override.
    let parent: GraphEngine?
    /// Whether this is a child graph (`Context.child()`), which builds the instances its
    /// ancestors store in the ancestor that registers them (`GraphEngine+Children`).
    let isChild: Bool
    /// Scope graphs layered over this one, told when it publishes a new index.
    var overlays: [GraphEngine] = []
    /// The retirements of this graph's changes still under way (see `mutate`). Guarded by
    /// `lock`.
    var retirements = RetirementTickets()
    /// Whether the parent published an index this graph has not merged yet.
    var parentChanged = false
    /// The entries made for decorations, by what they decorate: kept across publications so
    /// that their instances are (`GraphEngine+Decorations`).
    var decorationEntries: [DecorationEntryKey: IndexEntry] = [:]
    let changes = PassthroughSubject<Void, Never>()
    let changeStream = GraphChangeBroadcast()
    /// For the process-wide graph of an app that declares one: the activation of its
    /// default container, on the graph's first use.
    let defaults: DefaultContainerActivation?
    /// Set when the graph ends (the last context of a held graph goes, a child graph is
    /// ended): what a `Lazy` or `Provider` injected from it checks before resolving.
    let ended = ManagedAtomic<Bool>(false)

    /// Generations are unique across every graph, so a thread's snapshot cache can tell
    /// graphs apart by generation alone.
    static let generations = ManagedAtomic<Int>(0)

    init(
        settings: GraphSettings = GraphSettings(), parent: GraphEngine? = nil, isChild: Bool = false,
        defaults: DefaultContainerActivation? = nil
    ) {
        self.settings = settings
        self.parent = parent
        self.isChild = isChild
        self.defaults = defaults
        let raw = UnsafeMutableRawPointer(words)
        publishedGeneration = UnsafeAtomic(
            at: (raw + MemoryLayout<Words>.offset(of: \.generation)!).assumingMemoryBound(to: UnsafeAtomic<Int>.Storage.self))
        keptArraysWord = UnsafeAtomic(
            at: (raw + MemoryLayout<Words>.offset(of: \.keptArrays)!).assumingMemoryBound(
                to: UnsafeAtomic<UnsafeMutableRawPointer?>.Storage.self))
    }

    deinit {
        for record in active { record.container.removeListener(owner: self) }
        // No reader holds the graph any more, so none reaches its kept arrays.
        if let arrays = keptArraysWord.load(ordering: .acquiring) { Unmanaged<ElementArrays>.fromOpaque(arrays).release() }
        CacheLine.deallocate(words)
    }

    /// The arrays of singletons kept for the current index, nil until one is kept.
    var keptArrays: ElementArrays? {
        keptArraysWord.load(ordering: .acquiring).map { Unmanaged<ElementArrays>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The array of singletons kept for elements of the type `id`, retained (see
    /// `ElementArrays`); the table is read without counting a reference to it.
    @inline(__always)
    func keptArray(ofElement id: ObjectIdentifier, _ hazard: HazardCell) -> AnyObject? {
        guard let arrays = keptArraysWord.load(ordering: .acquiring) else { return nil }
        return Unmanaged<ElementArrays>.fromOpaque(arrays)._withUnsafeGuaranteedRef { $0.array(ofElement: id, hazard) }
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
        defaults?.activateIfNeeded(in: self)
        var (snapshot, isStale) = lock.withLock { (current, !invalidated.isEmpty || parentChanged) }
        if isStale {
            rebuildInvalidatedContainers()
            // An overlay merges the index its parent published since.
            if parent != nil, lock.withLock({ parentChanged }) {
                mutate { leftovers in if parentChanged { publishLocked(&leftovers) } }
            }
            snapshot = lock.withLock { current }
        }
        // While containers are invalidated the published generation differs from every
        // snapshot's, so each lookup comes here until they are rebuilt.
        cache.generation = snapshot.generation
        cache.snapshot = snapshot
        return snapshot
    }

    /// Rebuilds the index from the active containers and publishes it. Caller holds `lock`.
    ///
    /// - Parameter added: the container just activated, last in `active`, when it was not
    ///   active before: its registrations are then added to the current index instead, when
    ///   that gives the same index (`IndexSnapshot.adding`), so that a container activated
    ///   beside a large graph costs its own registrations only.
    func publishLocked(_ leftovers: inout Leftovers, added: ActiveContainer? = nil) {
        if let added, let snapshot = snapshot(adding: added) {
            publish(snapshot, &leftovers)
            currentIndexesActive = true
            return
        }
        // Each container already settled its own duplicates; across containers, the later
        // activated one wins.
        var entries: [IndexEntry]
        var inherited: IndexDecorations?
        if let parent {
            let snapshot = parent.lockedSnapshot()
            entries = overlaid(snapshot.entries)
            inherited = snapshot.decorations?.restricted(to: entries)
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
        let decorations = decorate(&entries, inheriting: inherited, &leftovers)
        install(entries, decorations: decorations, &leftovers)
        currentIndexesActive = parent == nil
    }

    /// The current index with the registrations of `added`, the container activated last,
    /// when the index of every active container would be that; nil otherwise (the caller
    /// rebuilds it). Caller holds `lock`.
    private func snapshot(adding added: ActiveContainer) -> IndexSnapshot? {
        // The current index must be the other containers' (no overlay, no decoration to
        // apply), and `added` new and last. Then the index built anew lists the current
        // entries, in order, but those `added` hides, then `added`'s; a registration hidden
        // already stays so. Identities are unique in an index, so `adding` finds each
        // hidden one by looking up `added`'s identities there.
        guard parent == nil, currentIndexesActive, settings.isIndexingEnabled, decorationEntries.isEmpty,
            active.count > 1, active.last === added, active.allSatisfy({ $0.decorations.isEmpty })
        else { return nil }
        return current.adding(added.entries, generation: Self.generations.wrappingIncrementThenLoad(ordering: .relaxed))
    }

    /// Publishes an index of `entries` (the active containers', or a verification sandbox's).
    /// Caller holds `lock`.
    func install(_ entries: [IndexEntry], decorations: IndexDecorations? = nil, _ leftovers: inout Leftovers) {
        let generation = Self.generations.wrappingIncrementThenLoad(ordering: .relaxed)
        let snapshot = IndexSnapshot(
            generation: generation,
            entries: entries,
            indexed: settings.isIndexingEnabled,
            capacity: max(settings.approximateDependencyCount, entries.count),
            decorations: decorations
        )
        publish(snapshot, &leftovers)
        currentIndexesActive = false
    }

    /// Makes `snapshot` the index lookups read; the one it replaces goes with `leftovers`.
    /// Caller holds `lock`.
    private func publish(_ snapshot: IndexSnapshot, _ leftovers: inout Leftovers) {
        unpublishKeptArrays(into: &leftovers.unpublished)
        leftovers.garbage.append(current)
        current = snapshot
        // While containers wait to be rebuilt, lookups must keep taking the slow path.
        publishedGeneration.store(
            invalidated.isEmpty && !parentChanged
                ? snapshot.generation : Self.generations.wrappingIncrementThenLoad(ordering: .relaxed),
            ordering: .releasing)
    }

    /// Keeps `box`, the array a request for elements of the type `id` answered from
    /// `snapshot`, when `snapshot` is the current index and lookups read it (no change is
    /// pending: an overlay's parent or an invalidated container may have retired entries
    /// it lists). See `ElementArrays`.
    func keep(_ box: AnyObject, ofElement id: ObjectIdentifier, in snapshot: IndexSnapshot) {
        lock.withLock {
            guard current === snapshot, publishedGeneration.load(ordering: .relaxed) == snapshot.generation else { return }
            let arrays: ElementArrays
            if let kept = keptArrays {
                arrays = kept
            } else {
                arrays = ElementArrays()
                keptArraysWord.store(Unmanaged.passRetained(arrays).toOpaque(), ordering: .releasing)
            }
            arrays.keep(box, ofElement: id)
        }
    }

    /// Unpublishes the arrays kept for the current index, whose singletons' entries leave
    /// (or may have left) the graph, for the caller to retire through the hazard domain once
    /// it drops `lock` (see `ElementArrays`). Caller holds `lock`.
    func unpublishKeptArrays(into unpublished: inout [Unmanaged<AnyObject>]) {
        keptArrays?.clear(into: &unpublished)
    }

    func notifyChange() {
        if settings.autoCleanupEnabled { releaseUnusedStorage() }
        changes.send(())
        changeStream.yield()
    }

}
