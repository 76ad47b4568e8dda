/// One instantiation in progress: what is being built, and what asked for it.
///
/// Frames form a linked list from the innermost instantiation back to the outermost one,
/// carried in a task-local value, so that nested resolutions, child tasks and `Task { }`
/// blocks started by a factory all see the path that led to them.
final class ResolutionFrame: Sendable {
    let parent: ResolutionFrame?
    let identity: RegistrationIdentity
    let arguments: ArgumentKey
    let context: InjectionError.DependencyContext
    /// The outermost resolution this frame belongs to; used to tell, when a thread would
    /// wait for an instance another resolution is building, whether that would deadlock.
    let chain: ResolutionChain

    init(parent: ResolutionFrame?, identity: RegistrationIdentity, arguments: ArgumentKey,
         context: InjectionError.DependencyContext, chain: ResolutionChain?) {
        self.parent = parent
        self.identity = identity
        self.arguments = arguments
        self.context = context
        self.chain = chain ?? parent?.chain ?? ResolutionChain()
    }

    /// The contexts from the outermost frame to this one.
    var path: [InjectionError.DependencyContext] {
        var contexts: [InjectionError.DependencyContext] = []
        var frame: ResolutionFrame? = self
        while let current = frame {
            contexts.append(current.context)
            frame = current.parent
        }
        return contexts.reversed()
    }

    /// Whether this frame or one of its ancestors is building the given registration.
    func contains(_ identity: RegistrationIdentity, arguments: ArgumentKey) -> Bool {
        var frame: ResolutionFrame? = self
        while let current = frame {
            if current.identity == identity && current.arguments == arguments { return true }
            frame = current.parent
        }
        return false
    }
}

/// The identity of one outermost resolution and everything it instantiates.
final class ResolutionChain: Sendable {}

/// The task-local path of instantiations in progress.
enum ResolutionStack {
    @TaskLocal static var current: ResolutionFrame?
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
