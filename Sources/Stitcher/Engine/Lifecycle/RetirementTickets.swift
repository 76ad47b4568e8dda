#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The retirements of one graph still under way, so that a call that lets instances go
/// returns only once the instances earlier changes replaced are released too.
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
final class RetirementTickets: @unchecked Sendable {
    private let lock = Lock()
    /// How many tickets were taken; the next one's number.
    private var taken = 0
    /// The tickets taken and not returned, oldest first.
    private var open: [Int] = []

    /// How many waits ended at `waitLimit` with a retirement still under way (for tests).
    private var cutShort = 0

    /// The longest a call that lets instances go waits for earlier retirements, in seconds.
    static let waitLimit = 2

    /// A ticket for the retirement the caller is about to run, and the number that bounds
    /// the tickets taken before it (`waitForRetirements(before:)`). Caller holds the graph's
    /// lock, which orders the tickets as the changes.
    func take() -> Int {
        lock.withLock {
            let ticket = taken
            taken += 1
            open.append(ticket)
            return ticket
        }
    }

    /// The number below which every ticket was taken by a change made before now. Caller
    /// holds the graph's lock.
    var bound: Int { lock.withLock { taken } }

    /// Returns `ticket`: its retirement has released what it replaced.
    func release(_ ticket: Int) {
        lock.withLock {
            if let index = open.firstIndex(of: ticket) { open.remove(at: index) }
            lock.broadcast()
        }
    }

    /// Waits until every ticket below `bound` is returned, or `waitLimit` has passed.
    func waitForRetirements(before bound: Int) {
        lock.withLock {
            guard let oldest = open.first, oldest < bound else { return }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += Self.waitLimit
            while let oldest = open.first, oldest < bound {
                if !lock.wait(until: deadline) {
                    cutShort += 1
                    return
                }
            }
        }
    }

    /// How many waits ended at `waitLimit` with a retirement still under way.
    var waitsCutShort: Int { lock.withLock { cutShort } }
}
