import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Iteration counts scale with `STITCHER_STRESS_SCALE` (CI lowers it under sanitizers).
let stressScale: Double = ProcessInfo.processInfo.environment["STITCHER_STRESS_SCALE"].flatMap(Double.init) ?? 1

func scaled(_ count: Int) -> Int { max(1, Int(Double(count) * stressScale)) }

private final class Built: @unchecked Sendable {
    let generation: Int
    init(generation: Int) { self.generation = generation }
}

/// Counts builds per key, from any thread.
private final class BuildLog: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func record(_ key: String) {
        lock.lock()
        counts[key, default: 0] += 1
        lock.unlock()
    }

    func count(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[key, default: 0]
    }
}

@Suite(.isolatedDependencyGraph)
struct StressTests {
    @Test func firstCreationRacesBuildEachScopeOnce() throws {
        let log = BuildLog()
        let scope = PassthroughSubject<Void, Never>()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Built in
                    log.record("singleton")
                    return Built(generation: 0)
                }
                .named("singleton").scope(.singleton)
                Dependency { () -> Built in
                    log.record("managed")
                    return Built(generation: 0)
                }
                .named("managed").scope(.managed(by: scope))
                Dependency { () -> Built in
                    log.record("shared")
                    return Built(generation: 0)
                }
                .named("shared").scope(.shared)
            })
        let rounds = scaled(40)
        for _ in 0..<rounds {
            let seen = InstanceSet()
            let holders = Protected<[Built]>([])
            let finished = onThreads(8, timeout: 30) { index in
                let name = ["singleton", "managed", "shared"][index % 3]
                if let built = try? DependencyGraph.inject(byName: name) as Built {
                    seen.insert(built)
                    holders.withLock { $0.append(built) }
                }
            }
            #expect(finished)
            #expect(seen.total == 8)
            #expect(seen.count == 3, "one instance per scope")
        }
        #expect(log.count("singleton") == 1)
        #expect(log.count("managed") == 1)
        #expect(log.count("shared") <= rounds, "at most once per round, while held")
    }

    @Test func tasksRacingOnFirstCreation() async throws {
        let log = BuildLog()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Built in
                    log.record("task")
                    return Built(generation: 0)
                }.scope(.singleton)
            })
        let identifiers = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<scaled(64) {
                group.addTask { ObjectIdentifier(try DependencyGraph.inject(byType: Built.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identifiers.count == 1)
        #expect(log.count("task") == 1)
    }

    @Test func managedResetsDuringResolutionBuildOncePerScopeLifetime() throws {
        let scope = Unchecked(PassthroughSubject<Void, Never>())
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Built in Built(generation: builds.increment()) }.scope(.managed(by: scope.value))
            })
        let resets = scaled(200)
        let stop = Flag(false)
        let failures = Counter()
        let finished = onThreads(4, timeout: 60) { index in
            if index == 0 {
                for _ in 0..<resets { scope.value.send() }
                stop.isOn = true
            } else {
                while !stop.isOn {
                    if (try? DependencyGraph.inject(byType: Built.self)) == nil { failures.increment() }
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
        #expect(builds.value <= resets + 1, "at most one instance per scope lifetime")
        let settled: Built = try DependencyGraph.inject()
        #expect(try DependencyGraph.inject(byType: Built.self) === settled)
    }

    @Test func churnOfActivationDeactivationAndInvalidationNeverDisturbsStableResolution() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Built(generation: -1) }.named("stable").scope(.singleton)
            })
        let stable: Built = try DependencyGraph.inject(byName: "stable")
        let subject = Unchecked(PassthroughSubject<Void, Never>())
        let flag = Flag(false)
        let churned = DependencyContainer {
            if flag.isOn { Dependency { Built(generation: 1) }.named("conditional") }
            Dependency { Built(generation: 2) }.named("churned")
        }
        .invalidated(tracking: subject.value)
        let stop = Flag(false)
        let failures = Counter()
        let wrong = Counter()
        let finished = onThreads(4, timeout: 60) { index in
            switch index {
            case 0:
                for round in 0..<scaled(300) {
                    DependencyGraph.activate(churned)
                    flag.isOn = round.isMultiple(of: 2)
                    subject.value.send()
                    DependencyGraph.deactivate(churned)
                }
                stop.isOn = true
            default:
                while !stop.isOn {
                    do {
                        let built: Built = try DependencyGraph.inject(byName: "stable")
                        if built !== stable { wrong.increment() }
                        _ = try? DependencyGraph.inject(byName: "conditional") as Built
                    } catch {
                        failures.increment()
                    }
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
        #expect(wrong.value == 0)
    }

    /// Shared instances are read without a lock; the weak reference they are read through
    /// is replaced each time the instance was released. Readers racing with a replacement
    /// must see either the live instance or none, never a released reference.
    @Test func sharedInstanceReleasedAndRebuiltWhileOtherThreadsRead() throws {
        let log = BuildLog()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Built in
                    log.record("shared")
                    return Built(generation: 0)
                }.scope(.shared)
            })
        let rounds = scaled(300)
        let threads = 3
        // Two phases per round: everyone resolves and holds, then everyone lets go.
        let barriers = (0..<(2 * rounds)).map { _ in Barrier(parties: threads) }
        let seen = Protected<[[ObjectIdentifier]]>(Array(repeating: [], count: rounds))
        let finished = onThreads(threads, timeout: 120) { _ in
            for round in 0..<rounds {
                var held: Built? = try? DependencyGraph.inject()
                // Read it again while others may be replacing the reference.
                for _ in 0..<20 { held = (try? DependencyGraph.inject()) ?? held }
                if let built = held { seen.withLock { $0[round].append(ObjectIdentifier(built)) } }
                barriers[2 * round].arriveAndWait(timeout: 30)
                held = nil
                barriers[2 * round + 1].arriveAndWait(timeout: 30)
            }
        }
        #expect(finished)
        let perRound = seen.withLock { $0 }
        #expect(perRound.allSatisfy { $0.count == threads }, "every resolution succeeded")
        #expect(perRound.allSatisfy { Set($0).count == 1 }, "threads holding it at once share one instance")
        #expect(log.count("shared") == rounds, "one build per round: released instances are rebuilt once")
    }

    /// Every thread lets go of the shared instance at once, so it is released and rebuilt
    /// over and over while the others read it: the sanitizers check that no reader follows
    /// a weak reference that was already released.
    @Test func sharedInstanceChurnUnderConcurrentReads() throws {
        let log = BuildLog()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Built in
                    log.record("shared")
                    return Built(generation: 1)
                }.scope(.shared)
            })
        let iterations = scaled(20_000)
        let resolved = Counter()
        let finished = onThreads(3, timeout: 120) { _ in
            var count = 0
            for _ in 0..<iterations {
                if let built = try? DependencyGraph.inject() as Built, built.generation == 1 { count += 1 }
            }
            for _ in 0..<count { resolved.increment() }
        }
        #expect(finished)
        #expect(resolved.value == 3 * iterations, "every read gave a live instance")
        #expect(log.count("shared") > 1, "instances were released and rebuilt")
    }

    @Test func injectedPropertiesFirstReadFromManyThreads() {
        let log = BuildLog()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Built in
                    log.record("property")
                    return Built(generation: 0)
                }.scope(.instance)
            })
        final class Holder: @unchecked Sendable { @Injected var built: Built }
        for _ in 0..<scaled(50) {
            let holder = Holder()
            let seen = InstanceSet()
            #expect(onThreads(6, timeout: 30) { _ in seen.insert(holder.built) })
            #expect(seen.count == 1)
        }
        #expect(log.count("property") == scaled(50), "one build per property")
    }
}
