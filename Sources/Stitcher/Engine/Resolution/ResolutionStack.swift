import Atomics
internal import _StitcherShims

/// One instantiation in progress on a thread.
///
/// Holds nothing strongly, so that pushing and popping it touches no reference count.
struct ResolutionFrame {
    /// The entry being instantiated; alive for as long as the frame, since the lookup that
    /// pushed it holds the snapshot.
    unowned(unsafe) let entry: IndexEntry
    /// `entry.record.identityHash`, read without following the entry.
    let identityHash: Int
    /// `entry.record.lifetime`, read without following the entry (and counting a reference
    /// to a registration every core reads) by the captive-dependency check of every build.
    let lifetime: InstanceLifetime
    /// The parameters (nil when the registration takes none); alive for as long as the
    /// frame, since the injection that pushed it holds them.
    private let packType: AnyArgumentPack.Type?
    private let values: UnsafeRawPointer?
    /// A hash of the parameter values, compared before the values themselves so that
    /// walking a deep path of one registration stays cheap; nil when not computed yet, or
    /// without parameters.
    let argumentHash: Int?

    init(entry: IndexEntry, arguments: InjectionArguments?, argumentHash: Int?) {
        self.entry = entry
        identityHash = entry.record.identityHash
        lifetime = entry.record.lifetime
        packType = arguments?.packType
        values = arguments?.values
        self.argumentHash = argumentHash
    }

    /// The parameter values; nil when the registration takes none.
    var arguments: InjectionArguments? { packType.map { InjectionArguments(packType: $0, values: values) } }

    var context: InjectionError.DependencyContext { entry.record.locator.context }
}

/// The identity of one outermost resolution and everything it instantiates, also across
/// the child tasks its factories start.
final class ResolutionChain: Sendable {}

/// The stored-scope instantiations in progress on a thread, shared with the child tasks
/// their factories start through a task-local value.
///
/// A factory may start a task and wait for it; if that task resolves back into a dependency
/// being built, the shared path reveals the cycle instead of a deadlock. The path is bound
/// once, by the outermost stored-scope instantiation of a resolution, and then kept up to
/// date in place: binding a task-local value for every nested instantiation would make
/// every task-local read walk all of them.
final class InheritedResolution: @unchecked Sendable {
    struct Step: Sendable {
        let owner: ObjectIdentifier
        let identityHash: Int
        /// The registration; what the step reports (its identity, its context) is derived
        /// from it only when asked: a step is made for every stored instance built, and
        /// naming a type costs far more than the build itself.
        let record: RegistrationRecord
        /// The parameter values; nil for a registration that takes none (most: no key to
        /// copy or release on every build).
        let arguments: ArgumentKey?

        /// The step of building `entry` with parameter values `arguments` (nil: none).
        init(_ entry: IndexEntry, arguments: ArgumentKey?) {
            owner = entry.owner
            identityHash = entry.record.identityHash
            record = entry.record
            self.arguments = entry.record.takesParameters ? arguments : nil
        }

        var context: InjectionError.DependencyContext { record.locator.context }

        /// Whether this step builds `entry` with the same parameter values (`arguments` is
        /// read only for a registration that takes parameters).
        func builds(_ entry: IndexEntry, with arguments: @autoclosure () -> ArgumentKey) -> Bool {
            identityHash == entry.record.identityHash && owner == entry.owner
                && (record === entry.record || record.identity == entry.record.identity)
                && (!entry.record.takesParameters || self.arguments == arguments())
        }
    }

    /// The resolution the path belongs to; changed only by `reuse(chain:_:)`, and let go
    /// by `releaseChain()` while nothing else holds the path.
    var chain: ResolutionChain { _chain! }
    // Both guarded: `_chain` changes only while no other thread can reach the path, `steps`
    // under `lock` (so exclusivity is not checked at run time).
    @exclusivity(unchecked) private var _chain: ResolutionChain?
    /// One of the path locks, chosen by address (a lock of its own would cost three
    /// allocations for every outermost build of a stored instance); not an entry's striped
    /// lock, which may be held while the path is read. Nothing else is locked under it.
    private var lock: ProcessLifetimeLock { runtime.pathLock(for: self) }
    @exclusivity(unchecked) private var steps: [Step]

    init(steps: [Step], chain: ResolutionChain) {
        self.steps = steps
        _chain = chain
    }

    /// Makes a path that nothing else holds any more (the caller checked: no task kept it)
    /// the path of another build, keeping the storage of its steps, which `fill` writes.
    /// Unlocked: no other thread can reach it.
    func reuse(chain: ResolutionChain, _ fill: (inout [Step]) -> Void) {
        _chain = chain
        // One step at a time: `removeAll(keepingCapacity:)` replaces a subrange generically,
        // which costs more than the build's few steps.
        while !steps.isEmpty { steps.removeLast() }
        fill(&steps)
    }

    /// Lets go of the chain of the path's last build, so that the thread can give it to its
    /// next one (see `ThreadState.newChain()`); the caller checked that nothing else holds the
    /// path, which `reuse(chain:_:)` gives a chain again before it is shared.
    func releaseChain() { _chain = nil }

    /// Whether the path still holds `chain` (it let go of its chain once its last build
    /// ended and the thread needed the chain again: `releaseChain()`). The caller checked
    /// that nothing else holds the path.
    func holds(_ chain: ResolutionChain) -> Bool { _chain === chain }

    func append(_ step: Step) { lock.withLock { steps.append(step) } }

    /// Removes the last step; released after the lock, since it may hold the last
    /// reference to a registration whose factory's captures run code when they go.
    func removeLast() {
        let removed = lock.withLock { steps.removeLast() }
        withExtendedLifetime(removed) {}
    }

    /// The steps as they are now.
    var current: [Step] { lock.withLock { steps } }

    /// Whether a step matches.
    func contains(where predicate: (Step) -> Bool) -> Bool {
        lock.withLock { steps.contains(where: predicate) }
    }
}

/// The task-local half of the resolution path.
enum ResolutionStack {
    @TaskLocal static var inherited: InheritedResolution?

    /// The path bound by the task that runs the caller, if any: the task-local value is
    /// read only while some path is bound anywhere in the process.
    static var inheritedFromTask: InheritedResolution? {
        inheritedPathCount == 0 ? nil : inherited
    }

}

/// Which resolution chains are waiting for instances that other chains are building.
///
/// Only consulted when a thread is about to wait, so it costs nothing when there is no
/// contention. A wait that would close a loop is a dependency cycle split across threads,
/// reported as an error instead of a deadlock. Each wait keeps the path that led to it, so
/// that the error shows the whole loop, not only the part the detecting thread walked.
enum WaitRegistry {
    private struct Wait {
        let builder: ResolutionChain
        /// The waiter's resolution path, ending with the dependency it waits for.
        let path: [InjectionError.DependencyContext]
    }

    private static let waits = Protected<[ObjectIdentifier: Wait]>([:])

    /// Records that `waiter` waits for `builder` to finish the last dependency of `path`.
    ///
    /// - Throws: ``InjectionError/cyclicDependencyReference(_:)`` with the closed loop when
    ///   `builder` (or a chain it waits for, and so on) waits for `waiter`.
    static func beginWaiting(
        _ waiter: ResolutionChain, for builder: ResolutionChain, along path: [InjectionError.DependencyContext]
    ) throws {
        let loop: [InjectionError.DependencyContext]? = waits.withLock { waits in
            var others: [[InjectionError.DependencyContext]] = []
            var next: ResolutionChain? = builder
            while let chain = next, others.count <= waits.count {
                if chain === waiter { return closedLoop(path, through: others) }
                let wait = waits[ObjectIdentifier(chain)]
                if let wait { others.append(wait.path) }
                next = wait?.builder
            }
            waits[ObjectIdentifier(waiter)] = Wait(builder: builder, path: path)
            return nil
        }
        if let loop { throw InjectionError.cyclicDependencyReference(.init(entries: loop)) }
    }

    static func endWaiting(_ waiter: ResolutionChain) {
        waits.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(waiter)) }
    }

    /// Blocks on `lock`, which the caller holds, until a build `builder` runs may have
    /// completed (the caller re-checks); the lock is held again on return.
    ///
    /// - Throws: the cycle `beginWaiting` finds, with `lock` released.
    static func block(
        _ waiter: ResolutionChain, for builder: ResolutionChain, on lock: ProcessLifetimeLock,
        along path: () -> [InjectionError.DependencyContext]
    ) throws {
        // A sibling task of the same resolution is building it: wait for it.
        guard builder !== waiter else { return lock.wait() }
        do {
            try beginWaiting(waiter, for: builder, along: path())
        } catch {
            lock.unlock()
            throw error
        }
        lock.wait()
        endWaiting(waiter)
    }

    /// Suspends until a build `builder` runs may have completed (the caller re-checks):
    /// `enqueue` keeps the continuation to resume, or returns false when the build is over.
    ///
    /// - Throws: the cycle `beginWaiting` finds.
    static func suspend(
        _ waiter: ResolutionChain, for builder: ResolutionChain,
        along path: () -> [InjectionError.DependencyContext],
        enqueue: (CheckedContinuation<Void, Never>) -> Bool
    ) async throws {
        if builder !== waiter { try beginWaiting(waiter, for: builder, along: path()) }
        await withCheckedContinuation { continuation in
            if !enqueue(continuation) { continuation.resume() }
        }
        if builder !== waiter { endWaiting(waiter) }
    }

    /// Joins the paths of the chains in a loop of waits into one path that starts and ends
    /// with the same dependency.
    ///
    /// `mine` ends with what the first of `others` builds; each of `others` ends with what
    /// the next builds, the last with a dependency on `mine`. Each path joins the previous
    /// one after the dependency they share.
    static func closedLoop(
        _ mine: [InjectionError.DependencyContext], through others: [[InjectionError.DependencyContext]]
    ) -> [InjectionError.DependencyContext] {
        guard let last = others.last?.last, let start = mine.dropLast().lastIndex(of: last) else { return mine }
        var loop = Array(mine[start...])
        for other in others {
            let joint = loop[loop.count - 1]
            let from = other.dropLast().lastIndex(of: joint).map { $0 + 1 } ?? 0
            loop += other[from...]
        }
        return loop
    }
}

/// The instantiations in progress on one thread, outermost first.
///
/// A buffer that only its thread touches, grown by hand: pushing and popping a frame checks
/// no uniqueness and copies no array, which an `Array` would on every instantiation.
///
/// One per thread (its `ThreadState`'s), so its count is the thread's C thread-local one
/// (`stitcher_frames`), and a frame is popped in C (`stitcher_pop_frame`, see
/// `ThreadState.popFrame()`), where the end of a value's build, inlined into the injecting
/// code, pops it too (`DependencyGraph.makeValue(with:)`). Frames are trivially destroyed
/// (checked when the stack is made), so that a pop is a decrement.
struct FrameStack: RandomAccessCollection {
    private var base: UnsafeMutablePointer<ResolutionFrame>
    private var capacity: Int

    init() {
        precondition(_isPOD(ResolutionFrame.self), "a frame holds no reference, so that popping it releases nothing")
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    /// How many frames are on the stack: the calling thread's count, which only the
    /// thread's own stack changes.
    @inline(__always)
    var count: Int { stitcher_frame_count() }

    /// Frees the buffer (its frames need no deinitialization); the stack must not be used
    /// afterwards. Leaves the count alone: it is the thread's, not the buffer's.
    mutating func deallocate() {
        base.deallocate()
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> ResolutionFrame {
        precondition(position >= 0 && position < count, "frame index out of range")
        return base[position]
    }

    /// Calls `body` with each frame, outermost first. A plain loop over the buffer: the
    /// collection protocols' generic iteration costs far more in unoptimized builds, and
    /// cycle checks walk the whole path at every level.
    @inline(__always)
    func forEach(_ body: (ResolutionFrame) throws -> Void) rethrows {
        var index = 0
        while index < count {
            try body(base[index])
            index += 1
        }
    }

    /// Whether a frame has this identity hash (see `ResolutionFrame.identityHash`).
    @inline(__always)
    func contains(identityHash: Int) -> Bool {
        var index = 0
        while index < count {
            if base[index].identityHash == identityHash { return true }
            index += 1
        }
        return false
    }

    @inline(__always)
    mutating func push(_ frame: ResolutionFrame) {
        let count = self.count
        if count == capacity { grow() }
        (base + count).initialize(to: frame)
        stitcher_set_frame_count(count &+ 1)
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<ResolutionFrame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
