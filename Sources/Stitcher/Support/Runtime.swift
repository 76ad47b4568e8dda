internal import _StitcherShims

/// The process-wide graph, and what threads share to read it.
///
/// Kept in one global, never deallocated. The counters and switches every lookup reads are
/// C globals instead (`_StitcherShims`): reading them costs no lazy-initialization check.
struct Runtime: @unchecked Sendable {
    /// The graph used wherever no isolated graph is bound; it activates the app's default
    /// container on its first use (see ``DependencyRegistering``).
    let shared = GraphEngine(defaults: DefaultContainerActivation.declared())
    /// Where lock-free readers of shared instances announce what they read.
    let hazards = HazardDomain()
    /// The thread-local slot of each thread's `ThreadState`.
    let threadStateKey = ThreadState.makeKey()
    /// The locks index entries share, chosen by address: a lock per entry would cost two
    /// allocations per registration, and entries hold their lock only for a few instructions.
    let stripedLocks: [Lock] = (0..<64).map { _ in Lock() }

    /// The locks resolution paths shared with child tasks use, chosen by address: apart from
    /// `stripedLocks`, since a path is read while an entry's lock is held.
    let pathLocks: [Lock] = (0..<16).map { _ in Lock() }

    /// The shared lock that guards `object`'s state, chosen by its address.
    @inline(__always)
    func stripedLock(for object: AnyObject) -> ProcessLifetimeLock {
        Self.lock(for: object, in: stripedLocks)
    }

    /// The shared lock numbered `number` (any integer: numbers that differ in their low bits
    /// get different locks), for objects that carry a number of their own.
    @inline(__always)
    func stripedLock(number: Int) -> ProcessLifetimeLock {
        Self.lock(number: number, in: stripedLocks)
    }

    /// The path lock of a resolution path shared with child tasks, chosen by its address.
    @inline(__always)
    func pathLock(for path: AnyObject) -> ProcessLifetimeLock {
        Self.lock(for: path, in: pathLocks)
    }

    /// One of `locks` (a power-of-two count), chosen by `object`'s address: objects are at
    /// least 16-byte aligned and usually 32 bytes or more apart.
    @inline(__always)
    private static func lock(for object: AnyObject, in locks: [Lock]) -> ProcessLifetimeLock {
        lock(number: Int(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(object)) >> 5), in: locks)
    }

    /// One of `locks` (a power-of-two count), chosen by the low bits of `number`; read
    /// through the buffer, so that neither the array nor the lock is retained.
    @inline(__always)
    private static func lock(number: Int, in locks: [Lock]) -> ProcessLifetimeLock {
        locks.withUnsafeBufferPointer { ProcessLifetimeLock(.passUnretained($0[number & ($0.count - 1)])) }
    }
}

let runtime = Runtime()

/// How many isolated graphs are bound right now (see `GraphContext`). A C global: reading
/// it costs no lazy-initialization check, unlike anything in `runtime`.
@inline(__always)
var isolatedGraphCount: Int { stitcher_isolated_graph_count() }

/// Counts isolated graphs bound (positive `delta`) or unbound (negative).
func addIsolatedGraphs(_ delta: Int) { stitcher_add_isolated_graphs(delta) }

/// Whether a dependency scope has ever been bound to a task (see `GraphContext.scope`):
/// until then, finding the current scope reads no task-local value.
@inline(__always)
var taskScopesWereBound: Bool { stitcher_task_scopes_bound() != 0 }

/// Records that a scope is bound to a task (a store the first time only: a count of the
/// scopes bound now, written by every request of a server, made every lookup on the
/// other cores miss its cache line).
func noteTaskScopeBound() { stitcher_note_task_scope_bound() }

/// How many resolution paths are bound for child tasks right now (see `ResolutionStack`).
@inline(__always)
var inheritedPathCount: Int { stitcher_inherited_path_count() }

/// Counts resolution paths bound for child tasks (positive `delta`) or unbound (negative).
func addInheritedPaths(_ delta: Int) { stitcher_add_inherited_paths(delta) }

/// How many graphs have a resolution observer right now: while none has, creating an
/// instance costs one relaxed load more than it would without observers.
@inline(__always)
var observedGraphCount: Int { stitcher_observed_graph_count() }

/// Counts graphs that gained (positive `delta`) or lost (negative) their observer.
func addObservedGraphs(_ delta: Int) { stitcher_add_observed_graphs(delta) }

/// How many graphs set their own cycle detection: while none does, a nested instantiation
/// reads the process-wide switch alone.
@inline(__always)
var cycleOverrideCount: Int { stitcher_cycle_override_count() }

/// Counts graphs that set (positive `delta`) or unset (negative) their own cycle detection.
func addCycleOverrides(_ delta: Int) { stitcher_add_cycle_overrides(delta) }

/// Whether `.instance` instantiations are tracked for cycle detection.
var detectsCycles: Bool {
    @inline(__always) get { stitcher_detects_cycles() != 0 }
    set { stitcher_set_detects_cycles(newValue ? 1 : 0) }
}
