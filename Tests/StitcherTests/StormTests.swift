import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private protocol Probe: AnyObject, Sendable {}

/// An instance whose life the census follows.
private class Resource: Probe, @unchecked Sendable {
    let census: Census
    init(_ census: Census) {
        self.census = census
        census.born()
    }
    deinit { census.died() }
}

/// Three types that share the `Probe` alias, one per volatile container: `[any Probe]` gets
/// those of the active containers.
private final class FirstProbe: Resource, @unchecked Sendable {}
private final class SecondProbe: Resource, @unchecked Sendable {}
private final class ThirdProbe: Resource, @unchecked Sendable {}

private final class Anchor: Sendable {}
private enum StormKey: Hashable {
    case core
    case volatile(Int)
}

/// How many resources were made and how many are alive, from any thread.
private final class Census: @unchecked Sendable {
    private let lock = NSLock()
    private var live = 0
    private var made = 0

    func born() {
        lock.lock()
        live += 1
        made += 1
        lock.unlock()
    }
    func died() {
        lock.lock()
        live -= 1
        lock.unlock()
    }
    var alive: Int {
        lock.lock()
        defer { lock.unlock() }
        return live
    }
    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return made
    }
}

/// A container the storm activates, deactivates, invalidates and resets, with every scope,
/// parameters, an alias, a value key, an async factory and a conditional registration.
private final class Volatile: @unchecked Sendable {
    let index: Int
    let scope = PassthroughSubject<Void, Never>()
    let tracked = PassthroughSubject<Void, Never>()
    let conditional = Flag(true)
    let container: DependencyContainer

    init(index: Int, census: Census) {
        self.index = index
        let (scope, conditional) = (scope, conditional)
        container = DependencyContainer {
            Dependency { Resource(census) }.named("singleton-\(index)").scope(.singleton)
            Dependency { Resource(census) }.named("shared-\(index)").scope(.shared)
            Dependency { Resource(census) }.named("managed-\(index)").scope(.managed(by: scope))
            Dependency { Resource(census) }.named("instance-\(index)").scope(.instance)
            Dependency { (key: Int) in Resource(census) }.named("keyed-\(index)").scope(.singleton)
            Dependency { Resource(census) }.associated(with: StormKey.volatile(index))
            Dependency { () async -> Resource in Resource(census) }.named("async-\(index)").scope(.singleton)
            switch index {
            case 0: Dependency(conformingTo: Probe.self) { FirstProbe(census) }
            case 1: Dependency(conformingTo: Probe.self) { SecondProbe(census) }
            default: Dependency(conformingTo: Probe.self) { ThirdProbe(census) }
            }
            if conditional.isOn {
                Dependency { Resource(census) }.named("conditional-\(index)").scope(.singleton)
            }
        }.invalidated(tracking: tracked)
    }
}

/// What one storm did, for the record.
private struct Tally {
    var injections = 0, misses = 0, activations = 0, deactivations = 0, invalidations = 0
    var resets = 0, isolatedGraphs = 0, asyncInjections = 0, asyncHits = 0

    static func + (lhs: Tally, rhs: Tally) -> Tally {
        Tally(
            injections: lhs.injections + rhs.injections, misses: lhs.misses + rhs.misses,
            activations: lhs.activations + rhs.activations, deactivations: lhs.deactivations + rhs.deactivations,
            invalidations: lhs.invalidations + rhs.invalidations, resets: lhs.resets + rhs.resets,
            isolatedGraphs: lhs.isolatedGraphs + rhs.isolatedGraphs, asyncInjections: lhs.asyncInjections + rhs.asyncInjections,
            asyncHits: lhs.asyncHits + rhs.asyncHits)
    }
}

/// Seeded random mixes of every operation, from several threads at once, with invariants
/// checked throughout and at the end. `STITCHER_STORM_SEED` replays one seed.
@Suite(.isolatedDependencyGraph)
struct StormTests {
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["STITCHER_STORM_SEED"]
        .flatMap { UInt64($0) }.map { [$0] } ?? [0x5EED_0001, 0x5EED_0002, 0x5EED_0003]

    static let threads = 4

    @Test(arguments: seeds) func mixedOperationsKeepEveryInvariant(seed: UInt64) async throws {
        let census = Census()
        let anchors = Counter()
        let volatiles = (0..<3).map { Volatile(index: $0, census: census) }
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Anchor in
                    anchors.increment()
                    return Anchor()
                }.scope(.singleton)
                Dependency { (value: Int) in value * 2 }.named("double")
                Dependency(for: StormKey.core) { "core" }
            })
        let anchor: Anchor = try DependencyGraph.inject(byType: Anchor.self)
        let failures = Protected<[String]>([])
        let tallies = Protected<[Tally]>([])
        let operations = scaled(2_500)

        let context = DependencyGraph.currentContext
        let done = DispatchGroup()
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchGroup()
        for thread in 0..<Self.threads {
            done.enter()
            ended.enter()
            Thread.detachNewThread {
                var random = SeededGenerator(state: seed &+ UInt64(thread))
                var tally = Tally()
                context.run {
                    for _ in 0..<operations {
                        do {
                            try Self.step(&random, &tally, volatiles, anchor)
                        } catch {
                            failures.withLock { if $0.count < 10 { $0.append("\(error)") } }
                        }
                    }
                }
                tallies.withLock { $0.append(tally) }
                // Parked, like an idle worker, while the test checks what was released.
                done.leave()
                release.wait()
                ended.leave()
            }
        }
        // Waited for off the cooperative pool: the storm's async injections need its threads.
        #expect(await offThePool { done.wait(timeout: .now() + 120) } == .success, "no hang")
        for failure in failures.withLock({ $0 }) { Issue.record("seed \(seed): \(failure)") }

        for volatile in volatiles { DependencyGraph.deactivate(volatile.container) }
        #expect(census.alive == 0, "seed \(seed): every instance released once its container, scope or graph let it go")
        #expect(anchors.value == 1, "the always-active singleton is built once")
        for _ in 0..<Self.threads { release.signal() }
        await offThePool { ended.wait() }

        let total = tallies.withLock { $0.reduce(Tally(), +) }
        print(
            """
            Storm seed \(seed): \(Self.threads) threads × \(operations) operations; \
            \(total.injections) injections (\(total.misses) misses, \(total.asyncInjections) async, \(total.asyncHits) found), \
            \(total.activations) activations, \(total.deactivations) deactivations, \
            \(total.invalidations) invalidations, \(total.resets) managed resets, \
            \(total.isolatedGraphs) isolated graphs; \(census.total) instances made
            """)
    }

    /// One random operation; throws what breaks an invariant.
    private static func step(
        _ random: inout SeededGenerator, _ tally: inout Tally, _ volatiles: [Volatile], _ anchor: Anchor
    ) throws {
        let volatile = volatiles[Int.random(in: 0..<volatiles.count, using: &random)]
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45:
            tally.injections += 1
            if try injectVolatile(volatile, &random) != nil { tally.misses += 1 }
        case 45..<60:
            tally.injections += 1
            try injectCore(anchor)
        case 60..<68:
            tally.activations += 1
            DependencyGraph.activate(volatile.container)
        case 68..<76:
            tally.deactivations += 1
            DependencyGraph.deactivate(volatile.container)
        case 76..<82:
            tally.invalidations += 1
            volatile.conditional.isOn.toggle()
            if Bool.random(using: &random) { volatile.container.invalidate() } else { volatile.tracked.send() }
        case 82..<88:
            tally.resets += 1
            volatile.scope.send()
        case 88..<93:
            tally.isolatedGraphs += 1
            try DependencyGraph.withIsolatedGraph {
                DependencyGraph.activate(volatile.container)
                if let missing = try injectVolatile(volatile, &random) {
                    throw Broken("\(missing) found nothing in the graph that activated its container")
                }
                if Bool.random(using: &random) { volatile.scope.send() }
            }
        case 93..<97:
            tally.asyncInjections += 1
            if try injectAsync(volatile) { tally.asyncHits += 1 } else { tally.misses += 1 }
        default:
            DependencyGraph.releaseUnusedStorage()
        }
    }

    /// Injects one of the volatile container's dependencies; the kind of request that found
    /// nothing when the container is not active, nil otherwise.
    private static func injectVolatile(_ volatile: Volatile, _ random: inout SeededGenerator) throws -> String? {
        let index = volatile.index
        let kind = Int.random(in: 0..<8, using: &random)
        do {
            switch kind {
            case 0: let _: Resource = try DependencyGraph.inject(byName: "singleton-\(index)")
            case 1: let _: Resource = try DependencyGraph.inject(byName: "shared-\(index)")
            case 2: let _: Resource = try DependencyGraph.inject(byName: "managed-\(index)")
            case 3: let _: Resource = try DependencyGraph.inject(byName: "instance-\(index)")
            case 4:
                let _: Resource = try DependencyGraph.inject(byName: "keyed-\(index)", parameters: Int.random(in: 0..<4, using: &random))
            case 5: let _: Resource = try DependencyGraph.inject(byValue: StormKey.volatile(index))
            case 6:
                let probes: [any Probe] = try DependencyGraph.inject()
                return probes.isEmpty ? "[any Probe]" : nil
            default:
                // Registered or not depending on the flag when the container was last built:
                // nil is an answer here, not a miss.
                let _: Resource? = try DependencyGraph.inject(byName: "conditional-\(index)")
            }
            return nil
        } catch InjectionError.missingDependency {
            return "request \(kind)"
        }
    }

    /// The always-active container: never missing, the same singleton, the right values.
    private static func injectCore(_ anchor: Anchor) throws {
        guard try DependencyGraph.inject(byType: Anchor.self) as Anchor === anchor else { throw Broken("a second Anchor") }
        let doubled: Int = try DependencyGraph.inject(byName: "double", parameters: 21)
        let core: String = try DependencyGraph.inject(byValue: StormKey.core)
        guard doubled == 42, core == "core" else { throw Broken("wrong values \(doubled), \(core)") }
    }

    /// Injects the async singleton from a task, blocking this (non-pool) thread until it ends.
    private static func injectAsync(_ volatile: Volatile) throws -> Bool {
        let outcome = Protected<Result<Bool, any Error>>(.success(false))
        let finished = DispatchSemaphore(value: 0)
        // The task inherits the graph this thread runs in.
        Task {
            do {
                let _: Resource = try await DependencyGraph.injectAsync(byName: "async-\(volatile.index)")
                outcome.withLock { $0 = .success(true) }
            } catch InjectionError.missingDependency {
                outcome.withLock { $0 = .success(false) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            finished.signal()
        }
        finished.wait()
        return try outcome.withLock { $0 }.get()
    }
}

/// Runs a blocking wait on a GCD thread, so that it holds no thread of the cooperative pool.
private func offThePool<T: Sendable>(_ wait: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: wait()) }
    }
}

private struct Broken: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
