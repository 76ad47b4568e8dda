import Atomics
import Foundation

/// What one graph sets for itself: its observer, and the configuration options it sets
/// apart from ``StitcherConfiguration``'s process-wide defaults. A graph and the scope
/// graphs layered over it share one.
final class GraphSettings: @unchecked Sendable {
    private let lock = Lock()
    private var _observer: (any DependencyGraphObserver)?
    private var values = GraphConfiguration()
    /// `values.runtimeCycleDetectionAvailability`, as read by nested instantiations without
    /// the lock: 0 follows the process-wide setting, 1 is on, 2 is off.
    private let cycleDetection = ManagedAtomic<UInt8>(0)

    deinit {
        if _observer != nil { addObservedGraphs(-1) }
        if cycleDetection.load(ordering: .relaxed) != 0 { addCycleOverrides(-1) }
    }

    var observer: (any DependencyGraphObserver)? {
        get { observedGraphCount == 0 ? nil : lock.withLock { _observer } }
        set {
            lock.withLock {
                addObservedGraphs((newValue == nil ? 0 : 1) - (_observer == nil ? 0 : 1))
                _observer = newValue
            }
        }
    }

    /// The options set for this graph; nil ones follow ``StitcherConfiguration``.
    var overrides: GraphConfiguration {
        get { lock.withLock { values } }
        set {
            lock.withLock {
                values = newValue
                let enabled = newValue.runtimeCycleDetectionAvailability?.isEnabled
                let new: UInt8 = enabled.map { $0 ? 1 : 2 } ?? 0
                let old = cycleDetection.exchange(new, ordering: .relaxed)
                addCycleOverrides((new == 0 ? 0 : 1) - (old == 0 ? 0 : 1))
            }
        }
    }

    var isIndexingEnabled: Bool { overrides.isIndexingEnabled ?? StitcherConfiguration.isIndexingEnabled }
    var approximateDependencyCount: Int {
        overrides.approximateDependencyCount ?? StitcherConfiguration.approximateDependencyCount
    }
    var autoCleanupEnabled: Bool { overrides.autoCleanupEnabled ?? StitcherConfiguration.autoCleanupEnabled }

    /// Whether `.instance` instantiations are checked for cycles in this graph: read only for
    /// nested instantiations, so an outermost one pays nothing for it; while no graph sets
    /// its own, one load of the process-wide switch.
    @inline(__always)
    var detectsCycles: Bool {
        if cycleOverrideCount == 0 { return Stitcher.detectsCycles }
        return detectsCyclesOverridden
    }

    private var detectsCyclesOverridden: Bool {
        switch cycleDetection.load(ordering: .relaxed) {
        case 0: Stitcher.detectsCycles
        case 1: true
        default: false
        }
    }
}

/// What the engine reports to an observer.
enum GraphEvent {
    case created(IndexEntry, parent: RegistrationRecord?, scope: Int?, duration: Duration)
    case failed(InjectionError.DependencyContext, parent: InjectionError.DependencyContext?, any Error)
    case opened(ScopeStore)
    case closed(ScopeStore, instanceCount: Int)
    case tornDown(InjectionError.DependencyContext, scope: Int?, error: (any Error)?)
}

extension GraphEngine {
    /// Whether any graph in the process has an observer: one relaxed load, checked before
    /// anything else is spent on observation.
    @inline(__always)
    var mayBeObserved: Bool { observedGraphCount != 0 }

    /// Tells the graph's observer, if it has one, about `event`. The check that no graph has
    /// one is inlined into every caller (a scope reports four events a request); the rest is not.
    @inline(__always)
    func report(_ event: @autoclosure () -> GraphEvent) {
        guard mayBeObserved else { return }
        reportToObserver(event)
    }

    /// `report(_:)` once some graph has an observer.
    @inline(never)
    private func reportToObserver(_ event: () -> GraphEvent) {
        guard let observer = settings.observer else { return }
        switch event() {
        case .created(let entry, let parent, let scope, let duration):
            observer.didCreate(
                .init(
                    dependency: entry.record.locator.context, scope: entry.record.scope, parent: parent?.locator.context,
                    scopeID: scope, duration: duration, container: containerName(of: entry), registration: entry.record,
                    parentRegistration: parent))
        case .failed(let dependency, let parent, let error):
            observer.didFail(.init(dependency: dependency, parent: parent, error: error))
        case .opened(let scope):
            observer.didOpenScope(.init(id: scope.id, depth: scope.depth, instanceCount: 0))
        case .closed(let scope, let count):
            observer.didCloseScope(.init(id: scope.id, depth: scope.depth, instanceCount: count))
        case .tornDown(let dependency, let scope, let error):
            observer.didTearDown(.init(dependency: dependency, scopeID: scope, error: error))
        }
    }

    /// Reports failed teardowns nobody else will see: to the observer, which had each one
    /// already, or, when there is none, to standard error.
    func reportUnthrown(_ failures: [ScopeTeardownError.Failure]) {
        guard !failures.isEmpty, !(mayBeObserved && settings.observer != nil) else { return }
        let message = "Stitcher: \(ScopeTeardownError(failures: failures)) (the scope's body threw its own error)\n"
        FileHandle.standardError.write(Data(message.utf8))
    }
}
