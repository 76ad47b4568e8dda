import Atomics
internal import _StitcherShims

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one thread keeps between lookups: the index snapshot it last read, and the
/// instantiations it has in progress.
///
/// **Snapshot.** Reading the graph's current snapshot through a lock, or through an atomic
/// strong reference, would make every lookup write to memory shared by all threads. Each
/// thread keeps its own strong reference instead, and compares the graph's generation (a
/// plain atomic load) with the one it cached; only when they differ does it take the graph's
/// lock. Generations are unique across graphs, so one cache serves whichever graph a thread
/// uses. A cached snapshot stays alive until its thread next reads a graph.
///
/// **Resolution path.** Instantiations nest synchronously on one thread, so the path that
/// led to the current one is a plain array here: pushing a frame allocates nothing.
///
/// Only its own thread touches it, so its properties skip runtime exclusivity checks.
final class ThreadState {
    @exclusivity(unchecked) var generation = -1
    @exclusivity(unchecked) var snapshot: IndexSnapshot? {
        willSet {
            // Frames and direct lookups hold entries of the snapshot they read unretained:
            // while a resolution is in progress, a replaced snapshot is kept until it ends.
            if !frames.isEmpty, let snapshot {
                supersededDuringResolution.append(snapshot)
                noteResolutionKeeps()
            }
        }
        didSet { unretainedSnapshot = snapshot.map(Unmanaged.passUnretained) }
    }
    /// Snapshots replaced while a resolution was in progress (see `snapshot`).
    @exclusivity(unchecked) private var supersededDuringResolution: [IndexSnapshot] = []
    /// `snapshot`, for reads that must not touch reference counts.
    @exclusivity(unchecked) private(set) var unretainedSnapshot: Unmanaged<IndexSnapshot>?
    /// Instantiations in progress on this thread, outermost first.
    @exclusivity(unchecked) var frames = FrameStack()
    /// The path inherited from the task that started this thread's outermost resolution.
    /// Set by the first frame's caller, which raises `noteResolutionKeeps()` first.
    @exclusivity(unchecked) var inherited: InheritedResolution?
    /// The path this thread shares with child tasks while a stored-scope dependency is
    /// being built. Unretained: `spareSharedPath` and the task-local binding hold it for
    /// as long as it is set (`GraphEngine.instantiateSharingPath`), which saved four
    /// reference counts an outermost build.
    @exclusivity(unchecked) var shared: Unmanaged<InheritedResolution>?

    /// Whether `path` is the one this thread shares with child tasks right now.
    @inline(__always)
    func isShared(_ path: InheritedResolution) -> Bool { shared?.toOpaque() == Unmanaged.passUnretained(path).toOpaque() }
    /// The dependency scope a synchronous region of a task (or of code outside any task)
    /// binds on this thread, while it runs (see `GraphContext.scope`).
    @exclusivity(unchecked) var scopeBinding: ScopeBinding?
    /// The identity of this thread's outermost resolution, made when first needed, when it
    /// is not this thread's spare chain (`usesSpareChain`; see `adopt(chain:)`).
    @exclusivity(unchecked) var heldChain: ResolutionChain?
    /// Whether this thread's outermost resolution is identified by `spareChain`, which the
    /// state holds already: retaining it again for each outermost build (every instance a
    /// request scope builds) cost two atomic operations a build.
    @exclusivity(unchecked) var usesSpareChain = false
    /// The scope the running task's binding names, read once by the resolution in progress
    /// (see `taskScopeDuringResolution(_:)`); unretained, as the binding holds it.
    @exclusivity(unchecked) private var resolutionTaskScope: Unmanaged<ScopeStore>?
    /// The lowest address of this thread's stack (see `StackGuard`).
    let stackLimit = StackGuard.lowestAddress()
    /// The process-wide graph, reachable without the lazy-initialization check of `runtime`,
    /// and used without retaining it: every thread retaining the one graph on every lookup
    /// would make them contend for its reference count.
    let sharedGraph = Unmanaged.passUnretained(runtime.shared)
    /// Where this thread announces the shared instance it is reading (see `HazardDomain`).
    let hazard = runtime.hazards.makeCell()
    /// The chain last handed out by `newChain()`, given again once nothing else holds it.
    /// Last: the fields every lookup reads keep their places (and cache lines).
    @exclusivity(unchecked) var spareChain = ResolutionChain()
    /// The path last handed out by `newSharedPath(chain:_:)`, given again once nothing
    /// else holds it.
    @exclusivity(unchecked) var spareSharedPath: InheritedResolution?
    /// The storage of the slots of the last scope that ended on this thread, emptied, for
    /// the next scope it opens (see `ClosedScope.recycle()`): a request's scope would
    /// otherwise allocate it anew. Only this thread touches it.
    @exclusivity(unchecked) var spareScopeSlots: ScopeSlots?
    /// The store of the last synchronous scope that ended on this thread with nothing else
    /// holding it, for the next scope it opens (see `ScopeStore.keepForReuse(_:)`).
    @exclusivity(unchecked) private var spareScopeStore: ScopeStore?
    /// Numbers for the dependency scopes this thread opens (see `nextScopeNumber()`).
    @exclusivity(unchecked) var scopeNumbers = NumberBlock()
    static let scopeNumberBlocks = ManagedAtomic<Int>(0)
    /// Serial numbers for the index entries this thread makes (see `nextEntrySerial()`).
    @exclusivity(unchecked) var entrySerials = NumberBlock()
    static let entrySerialBlocks = ManagedAtomic<Int>(0)
    /// How many graph changes on this thread are releasing what they replaced (see
    /// `GraphEngine.mutate`): a deinitializer they run that lets instances go must not wait
    /// for them.
    @exclusivity(unchecked) var retirementsInProgress = 0

    deinit {
        frames.deallocate()
        runtime.hazards.recycle(hazard)
    }

    static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        // The key's destructor releases the state when its thread ends; lookups read the
        // thread-local variable, which is faster than the key.
        let status = pthread_key_create(&key) { pointer in
            stitcher_set_current_thread_state(nil)
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Stitcher could not create its thread-local state.")
        return key
    }

    /// The calling thread's state, unretained: it lives as long as its thread.
    @inline(__always)
    static var unretainedCurrent: Unmanaged<ThreadState>? {
        stitcher_current_thread_state().map { Unmanaged<ThreadState>.fromOpaque($0) }
    }

    /// The calling thread's state, made if the thread has none yet, unretained: it lives as
    /// long as its thread, so that code that uses it before returning counts no reference.
    @inline(__always)
    static var currentUnretained: Unmanaged<ThreadState> {
        if let pointer = stitcher_current_thread_state() { return Unmanaged<ThreadState>.fromOpaque(pointer) }
        return .passUnretained(current)
    }

    /// The calling thread's state.
    @inline(__always)
    static var current: ThreadState {
        if let pointer = stitcher_current_thread_state() {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// Makes the calling thread's state, the first time it needs one.
    @inline(never)
    private static func makeCurrent() -> ThreadState {
        let state = ThreadState()
        let pointer = Unmanaged.passRetained(state).toOpaque()
        pthread_setspecific(runtime.threadStateKey, pointer)
        stitcher_set_current_thread_state(pointer)
        return state
    }

    /// A scope bound on a thread by a synchronous region of `task` (nil outside any task).
    struct ScopeBinding {
        /// Unretained: `GraphContext.run(scope:_:)`, which binds it, holds the scope until it
        /// restores the enclosing binding, and only this thread reads it. (Held strongly,
        /// every `.scoped` injection counted a reference to it and released it.)
        let scope: Unmanaged<ScopeStore>?
        let task: UnsafeMutableRawPointer?
    }

    /// Whether a resolution starting here runs outside any other: none in progress on this
    /// thread, and no path bound for child tasks anywhere in the process (so none this
    /// thread's task inherited). Such a resolution can be in no cycle, has no path to bind to
    /// its first frame, and no longer-lived instance can be holding what it builds.
    @inline(__always)
    var isOutsideAnyResolution: Bool { frames.isEmpty && inheritedPathCount == 0 }

    /// Forgets what the outermost resolution on the calling thread, whose last frame
    /// `stitcher_pop_frame()` just popped, kept (the pop answered that it kept something):
    /// where a value's build ends, in the injecting code (`DependencyGraph.makeValue(with:)`).
    static func forgetEndedResolution() {
        unretainedCurrent.unsafelyUnwrapped._withUnsafeGuaranteedRef(forgetResolution(of:))
    }

    private static func forgetResolution(of state: ThreadState) { state.forgetResolution() }

    /// Pops the innermost frame, and ends the resolution when it was the outermost: forgets
    /// what it kept. Most kept nothing: one thread-local flag tells (`stitcher_frames.keeps`),
    /// which every field the resolution sets raises (`noteResolutionKeeps()`). The pop and
    /// the test are one C function (`stitcher_pop_frame`), which the end of a value's build,
    /// inlined into the injecting code, calls too.
    @inline(__always)
    func popFrame() {
        if stitcher_pop_frame() != 0 { forgetResolution() }
    }

    /// The chain of the outermost resolution in progress, if it has one yet; nil between
    /// resolutions (what `ResolutionEndTests` checks is forgotten).
    var chainInUse: ResolutionChain? { usesSpareChain ? spareChain : heldChain }

    /// Whether the resolution in progress kept something for its end to forget (the flag
    /// the end of a value's build tests in the injecting code).
    var keepsResolutionState: Bool { stitcher_resolution_keeps() != 0 }

    /// Records that the resolution in progress set something `forgetResolution()` clears.
    @inline(__always)
    func noteResolutionKeeps() {
        stitcher_set_resolution_keeps(1)
    }

    /// Writes only what the resolution set: most outermost builds set the chain alone.
    @inline(never)
    func forgetResolution() {
        if inherited != nil { inherited = nil }
        resolutionTaskScope = nil
        usesSpareChain = false
        if heldChain != nil { heldChain = nil }
        if !supersededDuringResolution.isEmpty { supersededDuringResolution.removeAll() }
        stitcher_set_resolution_keeps(0)
    }

    /// The dependency scope bound to the running task, as `read` tells it, read once for
    /// the resolution in progress on this thread (the caller checked that one is): a
    /// request's nested `.scoped` injections would otherwise each read the task-local value.
    ///
    /// Why once is enough: a resolution runs synchronously on this thread, in one task, and
    /// only asynchronous code binds a scope to a task (synchronous code binds it to the
    /// thread, `scopeBinding`, which the caller reads first); so the task's binding cannot
    /// change before the resolution ends (`popFrame()` forgets it). The binding holds
    /// the scope for at least as long, which is why it is kept unretained.
    /// Returned unretained too: made strong and let go again, the kept scope counted two
    /// references on every nested `.scoped` injection.
    @inline(__always)
    func taskScopeDuringResolution(_ read: () -> ScopeStore?) -> Unmanaged<ScopeStore>? {
        if let resolutionTaskScope { return resolutionTaskScope }
        let scope = read().map(Unmanaged.passUnretained)
        resolutionTaskScope = scope
        if scope != nil { noteResolutionKeeps() }
        return scope
    }

    /// Takes the thread's spare scope store, if it has one.
    @inline(__always)
    func takeSpareScopeStore() -> ScopeStore? {
        guard spareScopeStore != nil else { return nil }
        return spareScopeStore.take()
    }

    /// The spare scope store the thread keeps, if any, by identity (for tests).
    var spareScopeStoreIdentity: ObjectIdentifier? { spareScopeStore.map(ObjectIdentifier.init) }

    /// Makes `store` the thread's spare scope store, and gives `store` the one it replaces
    /// (nil, but after a nested scope kept its store): moved, not counted.
    func swapSpareScopeStore(_ store: inout ScopeStore?) { swap(&store, &spareScopeStore) }
}
