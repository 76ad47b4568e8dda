import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Connection: @unchecked Sendable { init() {} }

/// A stored instance is released when its container, scope or graph lets it go: not when
/// some idle thread that once resolved it next looks something up.
@Suite(.isolatedDependencyGraph)
struct InstanceReleaseTests {
    @Test func deactivationReleasesASingletonAnIdleThreadResolved() throws {
        let made = Made()
        let container = DependencyContainer {
            Dependency { made.track(Connection()) }.scope(.singleton)
            Dependency { (id: Int) in made.track(Connection()) }.named("keyed").scope(.singleton)
        }
        DependencyGraph.activate(container)
        let thread = IdleThread {
            _ = try? DependencyGraph.inject(byType: Connection.self)
            _ = try? DependencyGraph.inject(byName: "keyed", 7) as Connection
        }
        defer { thread.end() }
        #expect(made.alive == 2)
        DependencyGraph.deactivate(container)
        #expect(made.alive == 0)
    }

    @Test func deactivationReleasesASingletonAnIdleWorkerResolved() throws {
        let made = Made()
        let container = DependencyContainer { Dependency { made.track(Connection()) }.scope(.singleton) }
        DependencyGraph.activate(container)
        onIdleWorker { _ = try? DependencyGraph.inject(byType: Connection.self) }
        #expect(made.alive == 1)
        DependencyGraph.deactivateAll()
        #expect(made.alive == 0)
    }

    @Test func aManagedResetReleasesWhatAnIdleThreadResolved() throws {
        let made = Made()
        let scope = Unchecked(PassthroughSubject<Void, Never>())
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { made.track(Connection()) }.scope(.managed(by: scope.value))
            })
        let thread = IdleThread { _ = try? DependencyGraph.inject(byType: Connection.self) }
        defer { thread.end() }
        #expect(made.alive == 1)
        scope.value.send()
        #expect(made.alive == 0)
    }

    @Test func theEndOfAnIsolatedGraphReleasesWhatAnIdleThreadResolved() throws {
        let made = Made()
        var thread: IdleThread?
        DependencyGraph.withIsolatedGraph {
            DependencyGraph.activate(DependencyContainer { Dependency { made.track(Connection()) }.scope(.singleton) })
            thread = IdleThread { _ = try? DependencyGraph.inject(byType: Connection.self) }
            #expect(made.alive == 1)
        }
        #expect(made.alive == 0)
        thread?.end()
    }

    @Test func anInstanceFinishedAfterItsContainerWasDeactivatedIsNotKept() throws {
        let made = Made()
        let building = DispatchSemaphore(value: 0)
        let deactivated = DispatchSemaphore(value: 0)
        let container = DependencyContainer {
            Dependency { () -> Connection in
                building.signal()
                deactivated.wait()
                return made.track(Connection())
            }.scope(.singleton)
        }
        DependencyGraph.activate(container)
        let finished = DispatchSemaphore(value: 0)
        let context = DependencyGraph.currentContext
        Thread.detachNewThread {
            context.run { _ = try? DependencyGraph.inject(byType: Connection.self) }
            finished.signal()
        }
        building.wait()
        DependencyGraph.deactivate(container)
        deactivated.signal()
        finished.wait()
        #expect(made.count == 1)
        #expect(made.alive == 0, "the caller got it; the deactivated container keeps nothing")
    }

    @Test func aFactoryThatDeactivatesItsOwnContainerKeepsNothing() throws {
        let made = Made()
        let holder = Protected<DependencyContainer?>(nil)
        let container = DependencyContainer {
            Dependency { () -> Connection in
                if let container = holder.withLock({ $0 }) { DependencyGraph.deactivate(container) }
                return made.track(Connection())
            }.scope(.singleton)
        }
        holder.withLock { $0 = container }
        DependencyGraph.activate(container)
        do { _ = try DependencyGraph.inject(byType: Connection.self) as Connection }
        #expect(made.count == 1)
        #expect(made.alive == 0)
        DependencyGraph.activate(container)
        holder.withLock { $0 = nil }
        let first = try DependencyGraph.inject(byType: Connection.self)
        #expect(try DependencyGraph.inject(byType: Connection.self) === first, "active again, it stores")
    }

    @Test func manyActivationCyclesLeaveNothingAlive() throws {
        let made = Made()
        let scope = Unchecked(PassthroughSubject<Void, Never>())
        let invalidation = Unchecked(PassthroughSubject<Void, Never>())
        let resets = Counter()
        final class Owner: @unchecked Sendable {
            @Injected(name: "singleton") var connection: Connection
        }
        let container = DependencyContainer {
            Dependency { made.track(Connection()) }.named("singleton").scope(.singleton)
            Dependency { made.track(Connection()) }.named("eager").scope(.singleton).eagerness(.eager)
            Dependency { made.track(Connection()) }.named("managed")
                .scope(.managed(by: scope.value.handleEvents(receiveOutput: { _ in resets.increment() })))
            Dependency { (id: Int) in made.track(Connection()) }.named("keyed").scope(.singleton)
        }
        .invalidated(tracking: invalidation.value)
        for cycle in 0..<1_000 {
            DependencyGraph.activate(container)
            _ = try DependencyGraph.inject(byName: "managed") as Connection
            _ = try DependencyGraph.inject(byName: "keyed", cycle % 3) as Connection
            onIdleWorker { _ = try? DependencyGraph.inject(byName: "singleton") as Connection }
            _ = Owner().connection
            invalidation.value.send()
            scope.value.send()
            DependencyGraph.deactivate(container)
        }
        #expect(made.count >= 4_000)
        #expect(made.alive == 0)
    }

    @Test func replacingADependenciesContainerIsAtomic() throws {
        final class App: @unchecked Sendable {
            @Dependencies var container = DependencyContainer { Dependency { Connection() }.named("db") }
        }
        let app = App()
        let containers = (0..<2).map { _ in
            DependencyContainer { Dependency { Connection() }.named("db").scope(.singleton) }
        }
        let stop = Flag(false)
        let misses = Counter()
        let lookups = Counter()
        let context = DependencyGraph.currentContext
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                context.run {
                    while !stop.isOn {
                        if (try? DependencyGraph.inject(byName: "db") as Connection) == nil { misses.increment() }
                        lookups.increment()
                    }
                }
                group.leave()
            }
        }
        for swap in 0..<scaled(500) { app.container = containers[swap % 2] }
        stop.isOn = true
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(lookups.value > 0)
        #expect(misses.value == 0, "a lookup sees the old registrations or the new ones")
    }

    @Test func releaseInstancesDropsEveryStoredInstanceAndKeepsTheRegistrations() throws {
        let made = Made()
        let subject = PassthroughSubject<Void, Never>()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { made.track(Connection()) }.scope(.singleton).named("singleton")
                Dependency { made.track(Connection()) }.scope(.managed(by: subject)).named("managed")
                Dependency { made.track(Connection()) }.scope(.shared).named("shared")
                Dependency { (id: Int) in made.track(Connection()) }.scope(.singleton).named("per-id")
                Dependency { made.track(Connection()) }.scope(.instance).named("transient")
            })
        let held: Connection = try DependencyGraph.inject(byName: "shared")
        // An idle thread resolves the singleton and keeps its snapshot cached.
        let idle = IdleThread { _ = try? DependencyGraph.inject(byName: "singleton") as Connection }
        defer { idle.end() }
        _ = try DependencyGraph.inject(byName: "singleton") as Connection
        _ = try DependencyGraph.inject(byName: "managed") as Connection
        _ = try DependencyGraph.inject(byName: "per-id", parameters: 1) as Connection
        _ = try DependencyGraph.inject(byName: "per-id", parameters: 2) as Connection
        #expect(made.alive == 5, "four stored instances and the held shared one")

        DependencyGraph.releaseInstances()
        #expect(made.alive == 1, "only the shared instance held here is alive")
        #expect(try DependencyGraph.inject(byName: "shared") as Connection !== held, "the graph forgot it")
        let again: Connection = try DependencyGraph.inject(byName: "singleton")
        #expect(try DependencyGraph.inject(byName: "singleton") as Connection === again, "stored again, once")
        #expect(made.count == 7, "one new shared and one new singleton instance")
        withExtendedLifetime(held) {}
    }

    @Test func releaseInstancesLeavesOtherGraphsAndEagerRebuildsToTheNextInjection() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency {
                    _ = builds.increment()
                    return Connection()
                }.scope(.singleton).eagerness(.eager)
            })
        #expect(builds.value == 1)
        let outer: Connection = try DependencyGraph.inject()
        DependencyGraph.withIsolatedGraph {
            DependencyGraph.activate(DependencyContainer { Dependency { Connection() }.scope(.singleton) })
            DependencyGraph.releaseInstances()
        }
        #expect(try DependencyGraph.inject() as Connection === outer, "another graph's release leaves this one")
        DependencyGraph.releaseInstances()
        #expect(builds.value == 1, "not rebuilt eagerly")
        #expect(try DependencyGraph.inject() as Connection !== outer)
        #expect(builds.value == 2)
    }
}
