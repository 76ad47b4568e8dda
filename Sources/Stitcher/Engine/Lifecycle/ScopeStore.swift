import Atomics

/// The instances one open dependency scope keeps, one slot per `.scoped` registration (and
/// parameter values) it serves, and what to tear down when it ends.
///
/// A scope never changes the index: a `.scoped` registration's entry stores nothing, and
/// its instances live in the slots of the scope that served them, behind the scope's lock
/// (never published for lock-free reads). Ending the scope empties the slots and so
/// releases the instances at once, with no process-wide barrier; no thread, idle or not,
/// holds on to them.
///
/// Each instance is built exactly once (`ScopeStore+Building.swift`): the first injection
/// claims the slot and runs the factory without holding the lock; others wait for it, and a
/// wait that would close a loop across threads is reported as a cycle.
@usableFromInline
final class ScopeStore: @unchecked Sendable {
    // The fields below are set when the scope opens, and again only when its thread reopens
    // the store for its next scope (`reopen`), which it does only to a store nothing holds.
    /// The enclosing scope, if this one is nested (each scope keeps its own instances).
    @exclusivity(unchecked) private(set) var parent: ScopeStore?
    /// A number that tells scopes apart in observer events, unique in the process.
    @exclusivity(unchecked) private(set) var id: Int

    // What the scope uses without counting references: a server opens a scope for every
    // request on every core, and counting references to the one graph and the shared locks
    // would make the cores take turns at their first cache lines, which every lookup reads.
    /// The graph the scope was opened in, told of what happens in it.
    @exclusivity(unchecked) private var unretainedGraph: Unmanaged<GraphEngine>
    /// The graph, held when it is not the process-wide one (which lives as long as the
    /// process).
    @exclusivity(unchecked) private var heldGraph: GraphEngine?
    /// Shared with other objects, chosen by the scope's number: a lock of its own would cost
    /// a scope three allocations, and the scope holds it for a few instructions.
    @exclusivity(unchecked) private(set) var lock: ProcessLifetimeLock

    // Guarded by `lock` (so exclusivity is not checked at run time).
    /// Slots in the order they were claimed (nil until the first); never reordered while
    /// the scope is open, so that a builder finds its slot again by position. Searched
    /// linearly: a scope serves a handful of registrations, and comparing a few numbers
    /// costs less than hashing one.
    ///
    /// Retained by the store by hand (`withSlots`): read as a counted reference, every use
    /// counted one, a claim two. The store takes them from its thread's spare when it opens
    /// (`reopen`), replaces them when they are full (`roomForOneMoreSlot()`) and moves them
    /// out when the scope ends (`close()`); `deinit` releases any still here.
    @exclusivity(unchecked) private var ownedSlots: Unmanaged<ScopeSlots>?
    /// Positions in the slots, made once a scope serves more than a handful.
    @exclusivity(unchecked) private var positions: [SlotKey: Int]?
    /// The newest slot that needs a teardown, or -1.
    @exclusivity(unchecked) var newestTeardown = -1
    @exclusivity(unchecked) var builtCount = 0
    @exclusivity(unchecked) var isClosed = false
    /// Whether the scope has been bound to a task, whose child tasks see it; until then only
    /// code that runs on the thread of a synchronous body does (see `GraphContext.scope`).
    @exclusivity(unchecked) var isSharedWithTasks = false
    /// Whether code on another thread or task may reach the scope: it was bound to a task,
    /// or a context or deferred injection (`Lazy`, `Provider`) captured it
    /// (`markSharedAcrossThreads()`). Until then the thread that opened it is the only one
    /// that can reach it, and it reads and writes the slots without the lock (`lockIfShared()`).
    ///
    /// Set once, under the lock, and never cleared. Only the opening thread can set it: any
    /// other thread reaches the scope only through what set it first, and what handed that
    /// to the thread ordered the write before the thread's reads (as the lock orders the
    /// slots written before it).
    @exclusivity(unchecked) private(set) var isSharedAcrossThreads = false
    #if DEBUG
    /// The thread that opened the scope, which alone reaches it while it is not shared:
    /// checked builds trap on any other (`lockIfShared()`).
    @exclusivity(unchecked) private var openingThread: UnsafeMutableRawPointer
    #endif
    /// Asynchronous injections suspended until a build completes.
    @exclusivity(unchecked) var asyncWaiters: [CheckedContinuation<Void, Never>] = []

    private struct SlotKey: Hashable {
        let entry: Int
        let key: ArgumentKey?
    }

    deinit {
        ownedSlots?.release()
    }

    /// Calls `body` with the scope's slots (nil: it has none), uncounted: the store holds
    /// them until `close()` or `roomForOneMoreSlot()` lets them go, which no caller does
    /// inside `body`. The caller holds the lock, or the scope is not shared
    /// (`lockIfShared()`).
    @inline(__always)
    func withSlots<R>(_ body: (ScopeSlots) throws -> R?) rethrows -> R? {
        guard let ownedSlots else { return nil }
        return try ownedSlots._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with slot `index` in place, uncounted (as `withSlots`). The index came
    /// from `position(of:_:)` or `claimNewSlot`, so the scope has its slots.
    @inline(__always)
    func withSlot<R>(_ index: Int, _ body: (inout ScopeSlot) throws -> R) rethrows -> R {
        guard let ownedSlots else { preconditionFailure("a slot's position is within the open scope's slots") }
        return try ownedSlots._withUnsafeGuaranteedRef { try $0.withSlot(index, body) }
    }

    /// A store for a new scope; `open(parent:graph:sharedWithTasks:)` reuses the calling
    /// thread's spare one instead, when it has one.
    private init(parent: ScopeStore?, graph: Unmanaged<GraphEngine>, sharedWithTasks: Bool, _ state: Unmanaged<ThreadState>) {
        self.parent = parent
        id = 0
        unretainedGraph = graph
        lock = runtime.stripedLock(number: 0)
        #if DEBUG
        openingThread = state.toOpaque()
        #endif
        reopen(parent: parent, graph: graph, sharedWithTasks: sharedWithTasks, state)
    }

    /// Sets the store up for a scope that opens now, on the calling thread (whose state is
    /// `state`): a new number and lock, no slot, nothing shared.
    private func reopen(parent: ScopeStore?, graph: Unmanaged<GraphEngine>, sharedWithTasks: Bool, _ state: Unmanaged<ThreadState>) {
        self.parent = parent
        #if DEBUG
        openingThread = state.toOpaque()
        #endif
        unretainedGraph = graph
        let isShared = state._withUnsafeGuaranteedRef { graph.toOpaque() == $0.sharedGraph.toOpaque() }
        heldGraph = isShared ? nil : graph.takeUnretainedValue()
        isSharedWithTasks = sharedWithTasks
        isSharedAcrossThreads = sharedWithTasks
        isClosed = false
        newestTeardown = -1
        builtCount = 0
        id = state._withUnsafeGuaranteedRef { $0.nextScopeNumber() }
        lock = runtime.stripedLock(number: id)
        ownedSlots?.release()
        ownedSlots = state._withUnsafeGuaranteedRef { $0.spareScopeSlots.take() }.map { .passRetained($0) }
    }

    /// The store of a scope that opens now on the calling thread: the thread's spare store
    /// (see `keepForReuse(_:)`), reopened, or a new one.
    static func open(parent: ScopeStore?, graph: Unmanaged<GraphEngine>, sharedWithTasks: Bool = false) -> ScopeStore {
        // The thread's state, uncounted: it outlives the call.
        let state = ThreadState.currentUnretained
        guard let spare = state._withUnsafeGuaranteedRef({ $0.takeSpareScopeStore() }) else {
            return ScopeStore(parent: parent, graph: graph, sharedWithTasks: sharedWithTasks, state)
        }
        spare.reopen(parent: parent, graph: graph, sharedWithTasks: sharedWithTasks, state)
        return spare
    }

    /// Keeps the store of a scope that ended on the calling thread as the thread's spare,
    /// for the next scope it opens, when nothing else holds it: a request's scope would
    /// otherwise allocate and free one. What it refers to is let go now.
    ///
    /// **Reclamation rule.** Reused only when `store` is the one strong reference left
    /// (`isKnownUniquelyReferenced`): no context, deferred injection or task kept the scope
    /// (observers are given its number, not the store). No reference kept unretained
    /// outlives the code the scope serves: the opening thread's binding (restored when the
    /// body returns), and a resolution's task scope on a thread running a task bound to it
    /// (forgotten when the resolution ends; a child task ends before the body returns, and
    /// a task that outlives the body holds the scope through its binding). Another thread that
    /// reached a shared scope let its reference go with the runtime's releasing decrement,
    /// which the check's load orders before the reopened store's writes, as copy-on-write
    /// relies on. An ended scope's slots were moved out by `close()`.
    static func keepForReuse(_ store: inout ScopeStore?) {
        guard isKnownUniquelyReferenced(&store) else { return }
        store?.letGoOfWhatItRefersTo()
        ThreadState.currentUnretained._withUnsafeGuaranteedRef { $0.swapSpareScopeStore(&store) }
    }

    /// Lets go of the enclosing scope and the graph, which a spare store must not keep.
    private func letGoOfWhatItRefersTo() {
        // Nothing else holds the store: nothing can be waiting on it.
        assert(asyncWaiters.isEmpty, "a scope store nothing holds has no waiters")
        parent = nil
        heldGraph = nil
    }

    /// The graph the scope was opened in.
    var graph: GraphEngine { unretainedGraph.takeUnretainedValue() }

    /// Tells the scope's graph's observer, if it has one, about `event`.
    @inline(__always)
    func report(_ event: @autoclosure () -> GraphEvent) {
        unretainedGraph._withUnsafeGuaranteedRef { $0.report(event()) }
    }

    /// Records that the scope is bound to a task from now on.
    func markSharedWithTasks() {
        lock.withLock {
            isSharedWithTasks = true
            // Written only when it changes: the opening thread reads it without the lock.
            if !isSharedAcrossThreads { isSharedAcrossThreads = true }
        }
    }

    /// Records that code on another thread may reach the scope from now on: a context or a
    /// deferred injection captured it. Its slots are then read and written under the lock,
    /// and the lock's release hands what the opening thread wrote without it to the others.
    func markSharedAcrossThreads() {
        // Read without the lock: only the opening thread writes it, and any other thread
        // that holds the scope already sees it set (see `isSharedAcrossThreads`).
        if isSharedAcrossThreads { return }
        lock.withLock { isSharedAcrossThreads = true }
    }

    /// Takes the lock when another thread or task may reach the scope, and answers whether
    /// it did; the opening thread of a scope nobody else reaches works on the slots alone.
    /// Every access to the slots starts here (or under the lock, in `buildOnce`).
    @inline(__always)
    func lockIfShared() -> Bool {
        guard isSharedAcrossThreads else {
            #if DEBUG
            precondition(
                ThreadState.unretainedCurrent?.toOpaque() == openingThread,
                "a scope not marked as shared was reached from another thread")
            #endif
            return false
        }
        lock.lock()
        return true
    }

    /// Wakes every waiter (the injections blocked on the lock's condition, and after the
    /// unlock the suspended ones) and unlocks; the caller holds the lock.
    @inline(__always)
    func unlockWakingWaiters() {
        lock.broadcast()
        // Most: no suspended injection, and no array made to take them out.
        if asyncWaiters.isEmpty { return lock.unlock() }
        unlockResumingSuspended()
    }

    /// Unlocks and resumes the suspended injections. Outlined: the function that takes the
    /// waiters out looks up their array's type on entry, whether any waits or not.
    @inline(never)
    private func unlockResumingSuspended() {
        let waiters = asyncWaiters
        asyncWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// How many scopes enclose this one.
    var depth: Int { parent.map { $0.depth + 1 } ?? 0 }

    /// The position of the slot for `entry` and `key` (nil: no parameters); the caller
    /// holds the lock, or the scope is not shared (`lockIfShared()`).
    func position(of entry: IndexEntry, _ key: ArgumentKey?) -> Int? {
        let serial = entry.serial
        if let positions { return positions[SlotKey(entry: serial, key: key)] }
        return withSlots { $0.position(of: serial, key) }
    }

    /// Appends a slot claimed by `builder`; the caller holds the lock, or the scope is not
    /// shared (`lockIfShared()`). Inlined into the claim, which every scope's first
    /// injection of a registration makes; growing and indexing the slots are outlined.
    @inline(__always)
    func claimNewSlot(_ entry: IndexEntry, _ key: ArgumentKey?, by builder: Unmanaged<ResolutionChain>) -> Int {
        let serial = entry.serial
        let index =
            withSlots { slots in slots.isFull ? nil : slots.append(ScopeSlot(entry: serial, key: key, builder: builder)) }
            ?? appendGrowingSlots(serial, key, by: builder)
        if positions != nil || index >= 16 { indexPosition(index, of: serial, key) }
        return index
    }

    /// Appends the slot of `claimNewSlot` when the slots are full or not made yet.
    @inline(never)
    private func appendGrowingSlots(_ serial: Int, _ key: ArgumentKey?, by builder: Unmanaged<ResolutionChain>) -> Int {
        roomForOneMoreSlot()
        return withSlots { $0.append(ScopeSlot(entry: serial, key: key, builder: builder)) }!
    }

    /// Records the position of the new slot `index`, once a scope serves more than a
    /// handful of registrations (the first time, of every slot).
    @inline(never)
    private func indexPosition(_ index: Int, of serial: Int, _ key: ArgumentKey?) {
        if positions != nil {
            positions![SlotKey(entry: serial, key: key)] = index
            return
        }
        positions = withSlots { slots in
            Dictionary(
                uniqueKeysWithValues: (0...index).map { position in
                    slots.withSlot(position) { (SlotKey(entry: $0.entry, key: $0.argumentKey), position) }
                })
        }
    }

    /// Makes room for one more slot: the first claim of a scope opened without spare slots
    /// makes them, and full ones are moved to twice the room (and the old let go).
    @inline(__always)
    private func roomForOneMoreSlot() {
        if withSlots({ $0.isFull }) == false { return }
        let larger = withSlots { $0.grown() } ?? ScopeSlots.make(capacity: 8)
        ownedSlots?.release()
        ownedSlots = .passRetained(larger)
    }

    /// Whether the scope has ended (read under its lock).
    var hasEnded: Bool { lock.withLock { isClosed } }

    /// Ends the scope: no injection is served any more, and every instance it kept is
    /// released when the caller lets the returned slots go, after their teardowns.
    func close() -> ClosedScope {
        // Moved out whole, so that nothing is released under the (shared) lock.
        let locked = lockIfShared()
        isClosed = true
        positions = nil
        let closed = ownedSlots.take()?.takeRetainedValue()
        let ended = ClosedScope(slots: closed, newestTeardown: newestTeardown, instanceCount: builtCount)
        // Nobody waits while no other thread can reach the scope.
        if locked { unlockWakingWaiters() }
        return ended
    }
}
