import StitcherTesting
import Testing

@testable import Stitcher

// `DependencyGraph.verify()`: every problem of a graph in one report, nothing reported for
// a valid graph, observed edges, and the option that builds every factory in a sandbox.

private final class Clock: @unchecked Sendable {}
private final class NeedsClock: @unchecked Sendable { init(clock: Clock) {} }
private protocol Store: AnyObject {}
private final class DiskStore: Store, @unchecked Sendable {}
private final class MemoryStore: Store, @unchecked Sendable {}
private final class NeedsStore: @unchecked Sendable { init(store: any Store) {} }
private final class Session: @unchecked Sendable { init(id: Int) {} }
private final class NeedsSession: @unchecked Sendable { init(session: Session) {} }
private final class Feed: @unchecked Sendable {}
private final class NeedsFeed: @unchecked Sendable { init(feed: Feed) {} }
private final class Ping: @unchecked Sendable { init(pong: Pong) {} }
private final class Pong: @unchecked Sendable { init(ping: Ping) {} }
private final class Request: @unchecked Sendable {}
private final class Formatter: @unchecked Sendable { init(request: Request) {} }
private final class Cache: @unchecked Sendable { init(formatter: Formatter) {} }
private final class Warmup: @unchecked Sendable { init(request: Request) {} }
private final class Pool: @unchecked Sendable {}
private final class Holder: @unchecked Sendable { init(pool: Pool) {} }
private final class Service: @unchecked Sendable { init(clock: Clock, stores: [any Store], feed: Feed?) {} }
private final class Alpha: @unchecked Sendable { init(beta: Beta) {} }
private final class Beta: @unchecked Sendable {}
private final class Gamma: @unchecked Sendable { init(alpha: Alpha) {} }
private struct Boom: Error {}
private final class Thrower: @unchecked Sendable { init() throws { throw Boom() } }
private final class UsesThrower: @unchecked Sendable { init(thrower: Thrower) {} }
private final class Built: @unchecked Sendable {
    init(_ counter: Counter, _ references: References) {
        counter.increment()
        references.add(self)
    }
}

/// Weak references to instances, to tell whether anything still holds them.
private final class References: @unchecked Sendable {
    private final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }
    private let lock = Lock()
    private var all: [Weak] = []
    func add(_ object: AnyObject) { lock.withLock { all.append(Weak(object)) } }
    var alive: Int { lock.withLock { all.filter { $0.object != nil }.count } }
    var count: Int { lock.withLock { all.count } }
}

/// One registration with each problem, and only those.
private func brokenContainer() -> DependencyContainer {
    DependencyContainer {
        Dependency(autowiring: NeedsClock.init)
        Dependency { DiskStore() }.conforms(to: Store.self)
        Dependency { MemoryStore() }.conforms(to: Store.self)
        Dependency(autowiring: NeedsStore.init)
        Dependency { (id: Int) in Session(id: id) }
        Dependency(autowiring: NeedsSession.init)
        Dependency { () async in Feed() }
        Dependency(autowiring: NeedsFeed.init)
        Dependency(autowiring: Ping.init).scope(.singleton)
        Dependency(autowiring: Pong.init).scope(.singleton)
        Dependency { Request() }.scope(.scoped)
        Dependency(autowiring: Formatter.init).scope(.instance)
        Dependency(autowiring: Cache.init).scope(.singleton)
        Dependency(autowiring: Warmup.init).scope(.instance).eagerness(.eager)
        Dependency { Pool() }.scope(.shared)
        Dependency(autowiring: Holder.init).scope(.singleton)
    }
}

@Suite(.isolatedDependencyGraph)
struct GraphVerificationTests {
    @Test func aGraphWithOneOfEachProblemReportsAllOfThemAndNothingElse() throws {
        DependencyGraph.activate(brokenContainer())
        let report = DependencyGraph.verificationReport()
        let found = report.problems.map { "\($0.kind) \($0.dependency)" }
        #expect(
            found == [
                "missingDependency Type[NeedsClock]",
                "ambiguousDependency Type[NeedsStore]",
                "parameterMismatch Type[NeedsSession]",
                "asynchronousDependency Type[NeedsFeed]",
                "dependencyCycle Type[Ping]",
                "captiveDependency Type[Cache]",
                "scopedOutsideScope Type[Warmup]",
            ])
        #expect(report.notes.map { "\($0.kind) \($0.dependency)" } == ["singletonHoldsShared Type[Holder]"])
        #expect(report.registrationCount == 16)
        #expect(!report.isValid)
        #expect(throws: GraphVerificationReport.self) { try DependencyGraph.verify() }
    }

    @Test func eachProblemNamesWhatWasAskedWhereItWasDeclaredAndHowToFixIt() throws {
        DependencyGraph.activate(brokenContainer())
        let problems = Dictionary(grouping: DependencyGraph.verificationReport().problems, by: \.kind)
        let missing = try #require(problems[.missingDependency]?.first)
        #expect(missing.requested == .type("Clock"))
        // Named by the file and line that created the container, as no name was given.
        #expect(missing.declaration == "Type[NeedsClock] () -> NeedsClock, shared (in StitcherTests/GraphVerificationTests.swift:56)")
        #expect(missing.container == "StitcherTests/GraphVerificationTests.swift:56")
        let ambiguous = try #require(problems[.ambiguousDependency]?.first)
        #expect(ambiguous.requested == .type("Store"))
        #expect(ambiguous.message.contains("Type[DiskStore] as Store () -> DiskStore"))
        #expect(ambiguous.message.contains("Type[MemoryStore] as Store () -> MemoryStore"))
        let mismatch = try #require(problems[.parameterMismatch]?.first)
        #expect(mismatch.message.contains("take (Int)"))
        let cycle = try #require(problems[.dependencyCycle]?.first)
        #expect(cycle.path == [.type("Ping"), .type("Pong"), .type("Ping")])
        let captive = try #require(problems[.captiveDependency]?.first)
        #expect(captive.path == [.type("Cache"), .type("Formatter"), .type("Request")])
        #expect(captive.message.contains("through Type[Formatter]"))
        for problem in problems.values.joined() {
            #expect(problem.fix.hasPrefix("To fix this, "))
            #expect(problem.description.contains(problem.declaration))
        }
        let description = DependencyGraph.verificationReport().description
        #expect(description.hasPrefix("Verifying the dependency graph (16 registrations) found 7 problems:\n1. "))
        #expect(description.contains("Notes:\n- Type[Holder] (singleton) holds Type[Pool] (shared)"))
    }

    @Test func aValidGraphVerifiesClean() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clock() }.scope(.singleton)
                Dependency { DiskStore() }.conforms(to: Store.self)
                Dependency { MemoryStore() }.conforms(to: Store.self)
                Dependency(autowiring: Service.init)  // an array takes every store; an absent optional is nil
                Dependency(autowiring: NeedsClock.init).scope(.singleton)
                Dependency { Request() }.scope(.scoped)
                Dependency(autowiring: Formatter.init).scope(.scoped)
            })
        try DependencyGraph.verify()
        let report = DependencyGraph.verificationReport()
        #expect(report.isValid && report.notes.isEmpty)
        #expect(report.description == "Verifying the dependency graph (7 registrations) found no problem.")
    }

    @Test func anExactTypeRegistrationIsNotAmbiguous() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { DiskStore() }.conforms(to: Store.self)
                Dependency { MemoryStore() as any Store }
                Dependency(autowiring: NeedsStore.init)
            })
        try DependencyGraph.verify()
    }

    @Test func observedEdgesCloseCyclesThatNoDeclarationShows() throws {
        let recorder = DependencyEdgeRecorder()
        DependencyGraph.currentContext.observer = recorder
        let mode = Flag(false)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Alpha(beta: try DependencyGraph.inject()) }.scope(.singleton)
                Dependency { () throws -> Beta in
                    if mode.isOn { _ = try DependencyGraph.inject(byType: Gamma.self) }
                    return Beta()
                }
                Dependency(autowiring: Gamma.init)
            })
        _ = try DependencyGraph.inject(byType: Alpha.self)  // observes Alpha -> Beta
        mode.isOn = true
        _ = try DependencyGraph.inject(byType: Beta.self)  // observes Beta -> Gamma; Gamma declares Alpha, built already
        // Alpha -> Beta -> Gamma -> Alpha: a process whose first Beta needs a Gamma cannot start.
        let problems = DependencyGraph.verificationReport().problems
        #expect(problems.map(\.kind) == [.dependencyCycle])
        #expect(problems.first?.path == [.type("Alpha"), .type("Beta"), .type("Gamma"), .type("Alpha")])
        // The declared edge alone is no cycle.
        #expect(DependencyGraph.verificationReport(.init(observations: DependencyEdgeRecorder())).isValid)
    }

    @Test func aScopedDependencyObservedOutsideAnyScopeIsReported() throws {
        DependencyGraph.currentContext.observer = DependencyEdgeRecorder()
        DependencyGraph.activate(DependencyContainer { Dependency { Request() }.scope(.scoped) })
        try DependencyGraph.verify()
        #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject(byType: Request.self) }
        let problems = DependencyGraph.verificationReport().problems
        #expect(problems.map(\.kind) == [.scopedOutsideScope])
        #expect(problems.first?.message.contains("Type[Request] is .scoped, and was injected while no dependency scope was open") == true)
    }

    @Test func instantiatingFindsAThrowingFactoryOnceWithoutStoringAnything() throws {
        let counter = Counter()
        let references = References()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Built(counter, references) }.scope(.singleton)
                Dependency { try Thrower() }
                Dependency(autowiring: UsesThrower.init).scope(.singleton)
                Dependency { (id: Int) in Session(id: id) }
            })
        try DependencyGraph.verify()  // the declarations are fine
        let report = DependencyGraph.verificationReport(.instantiating)
        #expect(report.problems.map { "\($0.kind) \($0.dependency)" } == ["failingFactory Type[Thrower]"])
        #expect(report.problems.first?.message.contains("Boom") == true)
        #expect(report.instantiatedCount == 3)
        #expect(report.notInstantiated == [.type("Session")])
        // Built once for the verification, released when it ended, never stored in the graph.
        #expect(counter.value == 1 && references.alive == 0)
        _ = try DependencyGraph.inject(byType: Built.self)
        #expect(counter.value == 2 && references.alive == 1)
        #expect(throws: GraphVerificationReport.self) { try DependencyGraph.verify(.instantiating) }
    }

    @Test func instantiatingUsesTheInstancesTheGraphHoldsAndRunsNoEagerSideEffectTwice() throws {
        let eager = Counter()
        let lazy = Counter()
        let references = References()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Built(eager, references) }.scope(.singleton).eagerness(.eager)
                Dependency { Built(lazy, references) }.named("lazy").scope(.singleton)
                Dependency { Request() }.scope(.scoped)
            })
        #expect(eager.value == 1)
        let held = try DependencyGraph.inject(byType: Built.self)
        try DependencyGraph.verify(.instantiating)
        #expect(eager.value == 1 && lazy.value == 1)
        #expect(references.alive == 1)  // the lazy singleton built for verification is gone
        #expect(try DependencyGraph.inject(byType: Built.self) === held)
        _ = try DependencyGraph.inject(byName: "lazy") as Built
        #expect(lazy.value == 2)
    }

    @Test func verifyAsyncBuildsAsynchronousFactories() async throws {
        let counter = Counter()
        let references = References()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async throws -> Thrower in try Thrower() }
                Dependency { () async in Built(counter, references) }.scope(.singleton)
            })
        let report = DependencyGraph.verificationReport(.instantiating)
        #expect(report.isValid && report.notInstantiated == [.type("Thrower"), .type("Built")])
        await #expect(throws: GraphVerificationReport.self) { try await DependencyGraph.verifyAsync(.instantiating) }
        #expect(counter.value == 1 && references.alive == 0)
    }
}

@Suite(.isolatedDependencyGraph)
struct ExpectValidDependencyGraphTests {
    @Test func aValidGraphRecordsNoIssue() {
        let report = expectValidDependencyGraph(
            DependencyContainer {
                Dependency { Clock() }.scope(.singleton)
                Dependency(autowiring: NeedsClock.init)
            })
        #expect(report.registrationCount == 2)
        // The containers were activated in a graph of their own, not the test's.
        #expect(DependencyGraph.activeRegistrations.isEmpty)
    }

    @Test func eachProblemIsAnIssue() {
        var report: GraphVerificationReport?
        withKnownIssue {
            report = expectValidDependencyGraph(brokenContainer())
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Dependency graph: ") && $0.rawValue.contains("To fix this") }
        }
        #expect(report?.problems.count == 7)
    }

    @Test func theCurrentGraphIsVerifiedWhenNoContainerIsGiven() async {
        await DependencyGraph.activate(DependencyContainer { Dependency(autowiring: NeedsClock.init) })
        await withKnownIssue {
            await expectValidDependencyGraphAsync()
        }
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async throws -> Thrower in try Thrower() }
            })
        await withKnownIssue {
            let report = await expectValidDependencyGraphAsync(options: .instantiating)
            #expect(report.problems.map(\.kind) == [.missingDependency, .failingFactory])
        }
    }
}

@Suite(.isolatedDependencyGraph)
struct DeclaredDependencyTests {
    @Test func dependsOnDeclaresWhatAFactoryClosureInjects() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { NeedsClock(clock: try DependencyGraph.inject()) }.dependsOn(Clock.self)
                Dependency { Holder(pool: try DependencyGraph.inject(byName: "pool")) }
                    .dependsOn(named: "pool", as: Pool.self)
                    .scope(.singleton)
            })
        let report = DependencyGraph.verificationReport()
        #expect(report.problems.map { $0.requested } == [.type("Clock"), .name("pool")])
        #expect(DependencyGraph.activeRegistrations.map(\.declaredDependencyTypeNames) == [["Clock"], ["Pool"]])
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clock() }.scope(.singleton)
                Dependency { Pool() }.named("pool").scope(.singleton)
            })
        try DependencyGraph.verify()
        #expect(DependencyGraph.export(.dot).contains("n0 -> n2;\n  n1 -> n3;"))
    }

    @Test func aDeclarationDoesNotChangeWhatTheFactoryBuilds() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clock() }.dependsOn(Pool.self, [any Store].self, Feed?.self).scope(.singleton)
            })
        // An Array takes every match (none here) and an absent Optional is nil: only Pool is missing.
        #expect(DependencyGraph.verificationReport().problems.map(\.requested) == [.type("Pool")])
        let clock = try DependencyGraph.inject(byType: Clock.self)
        #expect(try DependencyGraph.inject(byType: Clock.self) === clock)
    }
}
