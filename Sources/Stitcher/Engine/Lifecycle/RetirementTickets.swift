#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The retirements of one graph still under way, so that a call that lets instances go
/// returns only once the instances earlier changes replaced are released too. Guarded by
/// the graph's `lock`, whose condition its waits use.
///
/// A change of the graph (`GraphEngine.mutate`) releases what it replaced after the graph's
/// lock is dropped, so that no deinitializer runs under the lock. A deactivation that another
/// thread makes just after such a change would otherwise return while the change is still
/// releasing instances of the container it deactivated: an invalidated container rebuilt in
/// the background (`GraphEngine.confirm`) kept its previous registrations' singletons alive
/// for the last microseconds of that rebuild's retirement, after `deactivateAll()` returned.
///
/// Each change that retires something takes a ticket under the graph's lock and returns it
/// when its leftovers are released. A call that lets instances go (deactivation, a reset,
/// `releaseInstances()`) then waits for the tickets taken before its own change.
///
/// The wait cannot block on the calling thread's own retirement: a deinitializer that a
/// retirement runs, and that deactivates a container, does not wait (`ThreadState`
/// counts the retirements in progress on its thread). It is bounded (`waitLimit`) against a
/// deinitializer on another thread that waits for the caller: past the limit the call
/// returns, and that retirement releases its instances when it ends.
struct RetirementTickets {
    /// How many tickets were taken: the number below which every ticket taken so far lies
    /// (the bound a change that lets instances go waits for).
    private(set) var bound = 0
    /// The tickets taken and not returned, oldest first.
    private var open: [Int] = []
    /// How many waits ended at `waitLimit` with a retirement still under way (for tests).
    var waitsCutShort = 0

    /// The longest a call that lets instances go waits for earlier retirements, in seconds.
    static let waitLimit = 2

    /// A ticket for the retirement the caller is about to run.
    mutating func take() -> Int {
        let ticket = bound
        bound += 1
        open.append(ticket)
        return ticket
    }

    /// Returns `ticket`: its retirement has released what it replaced. The caller then wakes
    /// the waiters (`Lock.broadcast()`).
    mutating func release(_ ticket: Int) {
        if let index = open.firstIndex(of: ticket) { open.remove(at: index) }
    }

    /// Whether a ticket below `bound` is still out.
    func isOpen(before bound: Int) -> Bool {
        guard let oldest = open.first else { return false }
        return oldest < bound
    }

    /// The realtime clock's reading `waitLimit` from now, for `Lock.wait(until:)`.
    static var deadline: timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        now.tv_sec += waitLimit
        return now
    }
}

extension GraphEngine {
    /// Returns `ticket`, the one `mutate` took for its retirement, waking the changes that
    /// wait for it; then, given a `bound`, waits until every retirement whose ticket lies
    /// below it is done, or `RetirementTickets.waitLimit` has passed. One lock section.
    func endRetirement(_ ticket: Int?, waitingBefore bound: Int?) {
        lock.withLock {
            if let ticket {
                retirements.release(ticket)
                lock.broadcast()
            }
            guard let bound, retirements.isOpen(before: bound) else { return }
            let deadline = RetirementTickets.deadline
            while retirements.isOpen(before: bound) {
                if !lock.wait(until: deadline) {
                    retirements.waitsCutShort += 1
                    return
                }
            }
        }
    }
}
