import Atomics

/// Numbers unique in the process for the dependency scopes and index entries a thread
/// makes, taken from blocks of the thread's own.
extension ThreadState {
    /// A number no other dependency scope of the process has.
    func nextScopeNumber() -> Int { scopeNumbers.next(from: Self.scopeNumberBlocks) }

    /// A number no other index entry of the process has (see `IndexEntry.serial`).
    func nextEntrySerial() -> Int { entrySerials.next(from: Self.entrySerialBlocks) }

    /// `nextEntrySerial()` of the calling thread's state, read without retaining it (an
    /// activation makes one entry per registration: ≈ 80 instructions each).
    static func nextEntrySerial() -> Int {
        guard let state = unretainedCurrent else { return current.nextEntrySerial() }
        return state._withUnsafeGuaranteedRef { $0.nextEntrySerial() }
    }

    /// Numbers unique in the process, taken from a block of this thread's: one process-wide
    /// count written by every request's scope would make the cores of a busy server take
    /// turns at its cache line.
    struct NumberBlock {
        private var numbers = 0..<0

        /// The next number; `count` (the process-wide one) is read only when the block is
        /// used up: passing it each time would retain and release it.
        mutating func next(from count: @autoclosure () -> ManagedAtomic<Int>) -> Int {
            if numbers.isEmpty {
                let blockSize = 256
                let end = count().wrappingIncrementThenLoad(by: blockSize, ordering: .relaxed)
                numbers = (end - blockSize + 1)..<(end + 1)
            }
            return numbers.popFirst()!
        }
    }
}
