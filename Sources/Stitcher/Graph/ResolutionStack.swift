import Atomics

/// One instantiation in progress on a thread.
struct ResolutionFrame {
    /// The entry being instantiated; alive for as long as the frame, since the lookup that
    /// pushed it holds the snapshot.
    unowned(unsafe) let entry: IndexEntry
    let arguments: InjectionArguments

    var context: InjectionError.DependencyContext { entry.record.locator.context }
}

/// The identity of one outermost resolution and everything it instantiates, also across
/// the child tasks its factories start.
final class ResolutionChain: Sendable {}

/// The resolution path captured when a stored-scope dependency starts being built, handed to
/// the child tasks its factory starts through a task-local value.
///
/// A factory may start a task and wait for it; if that task resolves back into the
/// dependency being built, the captured path reveals the cycle instead of a deadlock.
final class InheritedResolution: Sendable {
    struct Step: Sendable {
        let owner: ObjectIdentifier
        let identityHash: Int
        let identity: RegistrationIdentity
        let arguments: ArgumentKey
        let context: InjectionError.DependencyContext
    }

    let steps: [Step]
    let chain: ResolutionChain

    init(steps: [Step], chain: ResolutionChain) {
        self.steps = steps
        self.chain = chain
    }
}

/// The task-local half of the resolution path.
enum ResolutionStack {
    @TaskLocal static var inherited: InheritedResolution?

}

/// Which resolution chains are waiting for instances that other chains are building.
///
/// Only consulted when a thread is about to wait, so it costs nothing when there is no
/// contention. A wait that would close a loop is a dependency cycle split across threads,
/// reported as an error instead of a deadlock.
enum WaitRegistry {
    private static let waits = Protected<[ObjectIdentifier: ResolutionChain]>([:])

    /// Records that `waiter` waits for `builder`; false when that wait would deadlock.
    static func beginWaiting(_ waiter: ResolutionChain, for builder: ResolutionChain) -> Bool {
        waits.withLock { waits in
            var next: ResolutionChain? = builder
            var steps = 0
            while let chain = next, steps <= waits.count {
                if chain === waiter { return false }
                next = waits[ObjectIdentifier(chain)]
                steps += 1
            }
            waits[ObjectIdentifier(waiter)] = builder
            return true
        }
    }

    static func endWaiting(_ waiter: ResolutionChain) {
        waits.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(waiter)) }
    }
}
