import Atomics

/// The process-wide graph's activation of the app's default container (see
/// ``DependencyRegistering``): once, on the graph's first use, before anything else.
///
/// The graph calls `activateIfNeeded(in:)` where every first use passes: before each
/// mutation, and where a thread's lookup reads the index for the first time (a fresh
/// thread's cache is empty, so its first lookup, direct or not, comes there). Once done,
/// it costs those rare paths one atomic load.
final class DefaultContainerActivation: @unchecked Sendable {
    private enum Progress: Int, AtomicValue {
        case pending, activating, done
    }

    private let progress = ManagedAtomic(Progress.pending)
    /// Held while the container is built and activated. Recursive: its builder and the
    /// factories of its eager registrations run on the activating thread and use the graph.
    private let lock = Lock(recursive: true)
    private let container: () -> DependencyContainer

    /// The activation of the container of `DependencyGraph`'s conformance to
    /// ``DependencyRegistering``, or nil when the app declares none.
    static func declared() -> DefaultContainerActivation? {
        guard let declaring = DependencyGraph.self as Any.Type as? DependencyRegistering.Type else { return nil }
        return DefaultContainerActivation { declaring.defaultContainer }
    }

    init(_ container: @escaping () -> DependencyContainer) {
        self.container = container
    }

    /// Activates the container in `graph` unless that is done, waiting for another thread
    /// doing it; returns at once on the activating thread itself.
    @inline(__always)
    func activateIfNeeded(in graph: GraphEngine) {
        if progress.load(ordering: .acquiring) == .done { return }
        activate(in: graph)
    }

    @inline(never)
    private func activate(in graph: GraphEngine) {
        lock.withLock {
            // `.activating` here means this thread is the one activating (others wait on
            // the lock): the graph is used from within the activation.
            guard progress.load(ordering: .acquiring) == .pending else { return }
            progress.store(.activating, ordering: .relaxed)
            graph.activate(container())
            progress.store(.done, ordering: .releasing)
        }
    }
}
