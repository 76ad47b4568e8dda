import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Connection: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class Store: Sendable {
    let connection: Connection
    init(connection: Connection) { self.connection = connection }
}
private final class LoopA: Sendable { init() {} }
private final class LoopB: Sendable { init() {} }
private struct Refused: Error {}

@Suite(.isolatedDependencyGraph)
struct AsyncResolutionTests {
    @Test func anAsyncSingletonIsBuiltOnceByManyTasks() async throws {
        let builds = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Connection in
                    try? await Task.sleep(nanoseconds: 5_000_000)
                    return Connection(serial: builds.increment())
                }.scope(.singleton)
            })
        let serials = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<scaled(32) {
                group.addTask { try await DependencyGraph.injectAsync(byType: Connection.self).serial }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(serials == [1])
        #expect(builds.value == 1)
        #expect(try DependencyGraph.inject(byType: Connection.self).serial == 1, "once built, synchronous injection reads it")
    }

    @Test func synchronousInjectionOfAnAsyncFactoryIsRefusedWithAFix() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Connection in Connection(serial: 0) }.scope(.instance)
            })
        do {
            _ = try DependencyGraph.inject(byType: Connection.self) as Connection
            Issue.record("expected an error")
        } catch let error as InjectionError {
            #expect(error == .unsupportedOperation)
            #expect(error.recoverySuggestion?.contains("injectAsync") == true)
        }
        #expect(try await DependencyGraph.injectAsync(byType: Connection.self).serial == 0)
    }

    @Test func asyncFactoriesResolveOtherDependenciesAndTakeParameters() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { (serial: Int) async -> Connection in Connection(serial: serial) }
                Dependency { () async throws -> Store in
                    Store(connection: try await DependencyGraph.injectAsync(byType: Connection.self, parameters: 7))
                }
                Dependency { "sync" }.named("plain")
            })
        let store: Store = try await DependencyGraph.injectAsync()
        #expect(store.connection.serial == 7)
        let plain: String = try await DependencyGraph.injectAsync(byName: "plain")
        #expect(plain == "sync")
        let missing: Connection? = try? await DependencyGraph.injectAsync(byValue: 3)
        #expect(missing == nil)
    }

    @Test func cyclesThroughAsyncFactoriesAreDetected() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async throws -> LoopA in
                    _ = try await DependencyGraph.injectAsync(byType: LoopB.self) as LoopB
                    return LoopA()
                }.scope(.singleton)
                Dependency { () async throws -> LoopB in
                    // A synchronous injection inside an async factory sees the same path.
                    _ = try DependencyGraph.inject(byType: LoopA.self) as LoopA
                    return LoopB()
                }.scope(.instance)
            })
        await #expect(throws: InjectionError.cyclicDependencyReference(.init(entries: [.type("LoopA"), .type("LoopB"), .type("LoopA")]))) {
            _ = try await DependencyGraph.injectAsync(byType: LoopA.self) as LoopA
        }
    }

    @Test func anAsyncCycleSplitAcrossTasksGivesEveryTaskAClosedCycle() async throws {
        // Each factory waits until the other task has started building its own singleton,
        // then asks for it: neither task's own path shows the cycle.
        let started = AsyncBarrier(parties: 2)
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async throws -> LoopA in
                    await started.arriveAndWait()
                    _ = try await DependencyGraph.injectAsync(byType: LoopB.self) as LoopB
                    return LoopA()
                }.scope(.singleton)
                Dependency { () async throws -> LoopB in
                    await started.arriveAndWait()
                    _ = try await DependencyGraph.injectAsync(byType: LoopA.self) as LoopA
                    return LoopB()
                }.scope(.singleton)
            })
        async let first = failure { _ = try await DependencyGraph.injectAsync(byType: LoopA.self) as LoopA }
        async let second = failure { _ = try await DependencyGraph.injectAsync(byType: LoopB.self) as LoopB }
        for error in await [first, second] {
            guard case .cyclicDependencyReference(let backtrace)? = error as? InjectionError else {
                Issue.record("expected a cycle, got \(String(describing: error))")
                continue
            }
            #expect(backtrace.entries.count >= 3)
            #expect(backtrace.entries.first == backtrace.entries.last, "the path closes: \(backtrace)")
        }
    }

    @Test func anAsyncInjectionRacingActivationNeverRunsTheFactorySynchronously() async throws {
        // The async injection reads the index, finds nothing async and hands over to the
        // synchronous path, which reads it again: an activation in between must not make
        // that path run the async factory (and fail with `unsupportedOperation`).
        let container = DependencyContainer {
            Dependency { () async -> Connection in Connection(serial: 1) }.scope(.singleton)
        }
        let stop = Flag(false)
        let toggling = Task.detached { [context = DependencyGraph.currentContext] in
            context.run {
                while !stop.isOn {
                    DependencyGraph.activate(container)
                    DependencyGraph.deactivate(container)
                }
            }
        }
        var unexpected: [String] = []
        for _ in 0..<scaled(5_000) {
            do {
                _ = try await DependencyGraph.injectAsync(byType: Connection.self) as Connection
            } catch InjectionError.missingDependency {
            } catch {
                if unexpected.count < 5 { unexpected.append("\(error)") }
            }
        }
        stop.isOn = true
        await toggling.value
        #expect(unexpected.isEmpty, "only 'missing' while the container comes and goes: \(unexpected)")
    }

    @Test func aThrowingAsyncSingletonIsRetried() async throws {
        let attempts = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async throws -> Connection in
                    if attempts.increment() == 1 { throw Refused() }
                    return Connection(serial: attempts.value)
                }.scope(.singleton)
            })
        await #expect(throws: InjectionError.unknown(Refused())) {
            _ = try await DependencyGraph.injectAsync(byType: Connection.self) as Connection
        }
        let connection: Connection = try await DependencyGraph.injectAsync(byType: Connection.self)
        #expect(connection.serial == 2)
        #expect(try await DependencyGraph.injectAsync(byType: Connection.self) === connection)
    }

    @Test func asyncActivationBuildsAsyncEagerDependencies() async throws {
        let builds = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Connection in Connection(serial: builds.increment()) }
                    .scope(.singleton).eagerness(.eager)
            })
        #expect(builds.value == 1)
        #expect(try DependencyGraph.inject(byType: Connection.self).serial == 1)
    }

    @Test func unlabelledParametersAndSharedScopeWithAsyncFactories() async throws {
        let builds = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { (serial: Int, _: String) async -> Connection in
                    builds.increment()
                    return Connection(serial: serial)
                }.scope(.shared)
                Dependency(named: "store") { () async throws -> Store in
                    Store(connection: try await DependencyGraph.injectAsync(byType: Connection.self, 4, "a"))
                }
            })
        let held = try await DependencyGraph.injectAsync(byType: Connection.self, 4, "a")
        #expect(held.serial == 4)
        #expect(try await DependencyGraph.injectAsync(byType: Connection.self, 4, "a") === held, "shared while held")
        #expect(try await DependencyGraph.injectAsync(byType: Connection.self, 5, "a") !== held, "one per parameters")
        let store: Store = try await DependencyGraph.injectAsync(byName: "store")
        #expect(store.connection === held)
        #expect(builds.value == 2)
        await #expect(throws: InjectionError.self) {
            _ = try await DependencyGraph.injectAsync(byType: Connection.self, 4) as Connection
        }
    }
}

/// The error `body` throws, or nil.
private func failure(_ body: () async throws -> Void) async -> (any Error)? {
    do { try await body() } catch { return error }
    return nil
}
