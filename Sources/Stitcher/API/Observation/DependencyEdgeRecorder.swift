import Foundation

/// An observer that records which dependency asked for which, as injections happen.
///
/// ``DependencyGraph/verify(_:)`` and ``DependencyGraph/export(_:_:)`` read what it
/// recorded (the edges no declaration shows, and `.scoped` dependencies injected outside any
/// scope) when it is the graph's observer or given in the options.
///
/// The edges are those seen at run time (a factory that injects conditionally shows only
/// what it injected), counted, together with how many instances of each dependency were
/// built and how long their factories took in total.
///
/// ```swift
/// let recorder = DependencyEdgeRecorder()
/// DependencyGraph.observer = recorder
/// _ = try DependencyGraph.inject() as CheckoutService
/// for edge in recorder.edges { print("\(edge.from) -> \(edge.to)") }
/// ```
public final class DependencyEdgeRecorder: DependencyGraphObserver, @unchecked Sendable {
    /// One observed use of a dependency by another's factory.
    public struct Edge: Hashable, Sendable, CustomStringConvertible {
        /// The dependency whose factory asked.
        public let from: InjectionError.DependencyContext
        /// The dependency it was given.
        public let to: InjectionError.DependencyContext

        /// The edge from the dependency whose factory asked to the one it was given.
        public init(from: InjectionError.DependencyContext, to: InjectionError.DependencyContext) {
            self.from = from
            self.to = to
        }

        public var description: String { "\(from) -> \(to)" }
    }

    private let lock = NSLock()
    private var counts: [Edge: Int] = [:]
    private var order: [Edge] = []
    private var creations: [InjectionError.DependencyContext: (count: Int, time: Duration)] = [:]
    /// The edges between registrations (which contexts alone cannot tell apart when they
    /// differ only by their parameters), for `verify()` and `export(_:)`.
    private var registrationEdges: Set<ObservedEdge> = []
    /// The dependencies injected while no dependency scope was open, which then failed.
    private var unscoped: [InjectionError.DependencyContext] = []

    /// A recorder with no edges yet; set it as a graph's observer to start recording.
    public init() {}

    /// Every edge observed, in the order first seen.
    public var edges: [Edge] { lock.withLock { order } }

    /// How many instances were built along `edge`.
    public func count(of edge: Edge) -> Int { lock.withLock { counts[edge] ?? 0 } }

    /// How many instances of `dependency` were built, and their factories' total time.
    public func creations(of dependency: InjectionError.DependencyContext) -> (count: Int, time: Duration) {
        lock.withLock { creations[dependency] ?? (0, .zero) }
    }

    public func didCreate(_ event: DependencyGraphEvent.InstanceCreated) {
        lock.withLock {
            let previous = creations[event.dependency] ?? (0, .zero)
            creations[event.dependency] = (previous.count + 1, previous.time + event.duration)
            guard let parent = event.parent else { return }
            let edge = Edge(from: parent, to: event.dependency)
            if counts[edge] == nil { order.append(edge) }
            counts[edge, default: 0] += 1
            if let from = event.parentRegistration {
                registrationEdges.insert(ObservedEdge(from: IdentityKey(from), to: IdentityKey(event.registration)))
            }
        }
    }

    public func didFail(_ event: DependencyGraphEvent.ResolutionFailed) {
        guard let error = event.error as? DependencyScopeError, case .noScopeOpen = error.reason else { return }
        lock.withLock { if !unscoped.contains(event.dependency) { unscoped.append(event.dependency) } }
    }

    /// What the recorder saw, as `verify()` reads it.
    var observations: (edges: Set<ObservedEdge>, unscoped: [InjectionError.DependencyContext]) {
        lock.withLock { (registrationEdges, unscoped) }
    }
}

/// An observed use of one registration by another's factory, by their identities.
struct ObservedEdge: Hashable, Sendable {
    let from: IdentityKey
    let to: IdentityKey
}
