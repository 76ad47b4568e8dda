import Atomics

/// The instances one open dependency scope keeps: one entry of its own per `.scoped`
/// registration it serves, and what to tear down when it ends.
///
/// A scope never changes the index. A `.scoped` registration's entry in the index stores
/// nothing; the scope that serves an injection lends it a *shadow* entry (same record, same
/// owner) made on first use, and the ordinary once-only building runs on the shadow: a
/// scope's instance is built exactly once, concurrent injections wait for it, and cycles are
/// detected as for any stored instance. A shadow keeps its instances behind its lock, never
/// published for lock-free reads (a read costs a lock): ending the scope retires the shadows
/// and releases the instances at once, with no process-wide barrier, and no thread, idle or
/// not, holds on to them.
final class ScopeStore: @unchecked Sendable {
    /// The enclosing scope, if this one is nested (each scope keeps its own instances).
    let parent: ScopeStore?
    /// A number that tells scopes apart in observer events, unique in the process.
    let id: Int
    /// The graph the scope was opened in, told of what happens in it.
    let graph: GraphEngine

    /// Shared with other objects, chosen by address: a lock of its own would cost a scope
    /// three allocations, and the scope holds it for a few instructions.
    private var lock: Lock { runtime.stripedLock(for: self) }
    /// Shadow entries with their originals, in creation order; the original is held so that
    /// its address cannot be reused by another entry while the scope is open. Searched
    /// linearly: a scope serves a handful of registrations, and comparing a few addresses
    /// costs less than hashing one.
    private var shadows: [(original: IndexEntry, shadow: IndexEntry)] = []
    /// Positions in `shadows` by original, made once a scope serves more than a handful.
    private var positions: [ObjectIdentifier: Int]?
    /// Instances that asked to be torn down, oldest first.
    private var teardowns: [ScopeTeardown] = []
    private var isClosed = false

    private static let ids = ManagedAtomic<Int>(0)

    init(parent: ScopeStore?, graph: GraphEngine) {
        self.parent = parent
        self.graph = graph
        id = Self.ids.wrappingIncrementThenLoad(ordering: .relaxed)
    }

    /// How many scopes enclose this one.
    var depth: Int { parent.map { $0.depth + 1 } ?? 0 }

    /// The entry that keeps this scope's instances of the registration `original` stands for;
    /// nil once the scope has ended.
    func entry(for original: IndexEntry) -> IndexEntry? {
        lock.withLock {
            if isClosed { return nil }
            if let positions {
                if let position = positions[ObjectIdentifier(original)] { return shadows[position].shadow }
            } else {
                for pair in shadows where pair.original === original { return pair.shadow }
            }
            let shadow = IndexEntry(record: original.record, owner: original.owner)
            if shadows.isEmpty { shadows.reserveCapacity(8) }
            shadows.append((original, shadow))
            if positions != nil {
                positions![ObjectIdentifier(original)] = shadows.count - 1
            } else if shadows.count > 16 {
                positions = Dictionary(uniqueKeysWithValues: shadows.indices.map { (ObjectIdentifier(shadows[$0].original), $0) })
            }
            return shadow
        }
    }

    /// Takes a new instance built for this scope, remembering it for teardown if it asks;
    /// false when the scope ended while it was built (the instance is then torn down at once
    /// and the injection fails).
    func adopt(_ instance: AnyObject, of record: RegistrationRecord) -> Bool {
        let teardown = record.mayTearDown(instance) ? ScopeTeardown(record.value(of: instance), of: record) : nil
        let adopted: Bool = lock.withLock {
            if isClosed { return false }
            if let teardown { teardowns.append(teardown) }
            return true
        }
        if !adopted, let teardown { _ = ScopeTeardown.runSynchronously([teardown], in: self) }
        return adopted
    }

    /// Ends the scope: no injection is served any more, every instance it kept is released
    /// now, and what must be torn down is returned, oldest first, with how many
    /// registrations the scope served.
    func close() -> (teardowns: [ScopeTeardown], instanceCount: Int) {
        // Moved out whole, so that nothing is released under the (shared) lock.
        let (pending, pairs) = lock.withLock {
            isClosed = true
            positions = nil
            defer {
                teardowns = []
                shadows = []
            }
            return (teardowns, shadows)
        }
        GraphEngine.retire(pairs.map(\.shadow))
        return (pending, pairs.count)
    }
}
