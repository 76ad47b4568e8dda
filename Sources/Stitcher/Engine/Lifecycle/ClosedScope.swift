/// What a scope kept when it ended: its instances, released by `recycle()` (or with the
/// slots, when no copy of this value holds them any more), and the teardowns to run first,
/// newest first (walked through the slots, with no array of their own).
struct ClosedScope: Sequence {
    /// Nil when the scope claimed no slot.
    private var slots: ScopeSlots?
    private let newestTeardown: Int
    /// How many instances the scope built.
    let instanceCount: Int

    init(slots: ScopeSlots?, newestTeardown: Int, instanceCount: Int) {
        self.slots = slots
        self.newestTeardown = newestTeardown
        self.instanceCount = instanceCount
    }

    struct Iterator: IteratorProtocol {
        let scope: ClosedScope
        var position: Int

        mutating func next() -> ScopeTeardown? {
            var next: ScopeTeardown?
            position = scope.teardown(after: position) { teardown in
                next = ScopeTeardown(
                    teardown.instance.takeUnretainedValue(), of: teardown.record.takeUnretainedValue(),
                    by: teardown.witness.takeUnretainedValue())
            }
            return next
        }
    }

    func makeIterator() -> Iterator { Iterator(scope: self, position: newestTeardown) }

    /// One instance to tear down, its registration and its witness, uncounted.
    typealias UnretainedTeardown = (
        instance: Unmanaged<AnyObject>, record: Unmanaged<RegistrationRecord>, witness: Unmanaged<TeardownWitness>
    )

    /// Calls `body` with each instance to tear down, newest first, with its registration
    /// and its witness, read in place and uncounted (copied out, each teardown counted eight
    /// references: the compiler cannot see that a teardown leaves the slots alone).
    ///
    /// **Reclamation rule.** The closed scope's slots hold the instance and the registration
    /// (and the witness, or the registration holds it) until `recycle()`, which the scope's
    /// owner calls after the walk, on the same thread or task (see `ScopeSlots`). The slots
    /// were moved out of the scope's store when it ended (`ScopeStore.close()`), so no
    /// teardown, nor anything else, can reach them to let one go meanwhile. A walk after
    /// `recycle()` finds no slot: positions past the slots' count are not read.
    func forEachTeardown(_ body: (UnretainedTeardown) -> Void) {
        var position = newestTeardown
        while position >= 0 { position = teardown(after: position, body) }
    }

    /// Calls `body` with the teardown of the slot at `position` or the next older one that
    /// has one, and returns the position after it (-1: none left).
    @inline(__always)
    private func teardown(after position: Int, _ body: (UnretainedTeardown) -> Void) -> Int {
        slots?.teardown(after: position, body) ?? -1
    }

    /// Runs the teardowns synchronously, newest first (see `ScopeTeardown.runSynchronously`),
    /// and returns the failures in the order they happened. Most scopes have none to run,
    /// and make no iterator.
    func runTeardownsSynchronously(in scope: ScopeStore) -> [ScopeTeardownError.Failure] {
        newestTeardown < 0 ? [] : ScopeTeardown.runSynchronously(self, in: scope)
    }

    /// Releases the instances (after their teardowns) and keeps the slots' storage for the
    /// next scope the calling thread opens (see `ThreadState.spareScopeSlots`).
    mutating func recycle() {
        slots?.removeAll()
        // A large one is let go: most scopes serve a handful of registrations. So is one a
        // copy of this value still names (a teardown sequence in flight): it must not
        // serve another scope while that copy can read it.
        guard let room = slots?.room, room <= 32, isKnownUniquelyReferenced(&slots) else {
            slots = nil
            return
        }
        // Swapped in: moved, not counted (the thread's old spare, if any, is let go here).
        ThreadState.currentUnretained._withUnsafeGuaranteedRef { swap(&$0.spareScopeSlots, &slots) }
        slots = nil
    }

    /// Whether a teardown has an asynchronous form, which an asynchronous scope awaits.
    /// (Walked uncounted: as a sequence, each teardown counted four references.)
    var awaitsTeardown: Bool {
        var awaits = false
        forEachTeardown { teardown in
            if teardown.witness._withUnsafeGuaranteedRef({ $0.hasAsynchronous }) { awaits = true }
        }
        return awaits
    }
}
