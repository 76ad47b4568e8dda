import Foundation
import Stitcher
import StitcherTesting
import Testing

/// What happened, in order, from any thread.
private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private struct Broken: Error, Equatable { let name: String }

/// A `.scoped` dependency that logs its teardown, optionally failing it.
private final class Resource: TeardownAware, @unchecked Sendable {
    let name: String
    let log: Log
    let fails: Bool
    init(_ name: String, _ log: Log, fails: Bool = false) {
        self.name = name
        self.log = log
        self.fails = fails
    }
    func tearDown() throws {
        log.add("tearDown \(name)")
        if fails { throw Broken(name: name) }
    }
}

private final class AsyncResource: AsyncTeardownAware, @unchecked Sendable {
    let log: Log
    init(_ log: Log) { self.log = log }
    func tearDown() async throws {
        await Task.yield()
        log.add("async tearDown")
    }
}

/// A `.scoped` dependency whose teardown opens, fills and ends a dependency scope of its own.
private final class Reopening: TeardownAware, @unchecked Sendable {
    let log: Log
    init(_ log: Log) { self.log = log }
    func tearDown() throws {
        log.add("reopening")
        try DependencyGraph.withScope { _ = try DependencyGraph.inject(byName: "inner") as Resource }
        log.add("reopened")
    }
}

/// A value-type `.scoped` dependency that logs its teardown.
private struct ValueResource: TeardownAware {
    let name: String
    let log: Log
    func tearDown() { log.add("tearDown \(name)") }
}

private protocol Closable: Sendable {}
extension Resource: Closable {}
extension ValueResource: Closable {}

/// A value that asks for no teardown.
private struct Plain: Closable {}

/// Teardown when a dependency scope ends: newest first, once, whatever the body did, with
/// failures reported and the other teardowns still run.
@Suite(.isolatedDependencyGraph)
struct ScopeTeardownTests {
    @Test func teardownRunsNewestFirstOnceEach() throws {
        let log = Log()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Resource("database", log) }.named("database").scope(.scoped)
                Dependency { Resource("cache", log) }.named("cache").scope(.scoped)
                Dependency { () -> Resource in
                    _ = try DependencyGraph.inject(byName: "database") as Resource
                    _ = try DependencyGraph.inject(byName: "cache") as Resource
                    return Resource("repository", log)
                }.named("repository").scope(.scoped)
            })
        try DependencyGraph.withScope {
            _ = try DependencyGraph.inject(byName: "repository") as Resource
            _ = try DependencyGraph.inject(byName: "repository") as Resource
            #expect(log.all.isEmpty)
        }
        #expect(log.all == ["tearDown repository", "tearDown cache", "tearDown database"])
    }

    @Test func aTeardownMayOpenAScopeOfItsOwnAndTheOthersStillRunOnce() throws {
        // An ended scope's teardowns are run from its slots in place; one that opens, fills
        // and ends another scope on the same thread (which takes the thread's spare slot
        // storage, and gives it back) leaves the rest to run, once each, newest first.
        let log = Log()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Resource("first", log) }.named("first").scope(.scoped)
                Dependency { Reopening(log) }.scope(.scoped)
                Dependency { Resource("inner", log) }.named("inner").scope(.scoped)
                Dependency { Resource("last", log) }.named("last").scope(.scoped)
            })
        for _ in 0..<2 {
            try DependencyGraph.withScope {
                _ = try DependencyGraph.inject(byName: "first") as Resource
                _ = try DependencyGraph.inject() as Reopening
                _ = try DependencyGraph.inject(byName: "last") as Resource
            }
        }
        let once = ["tearDown last", "reopening", "tearDown inner", "reopened", "tearDown first"]
        #expect(log.all == once + once)
    }

    @Test func aThrowingBodyStillTearsDownAndItsErrorIsRethrown() {
        let log = Log()
        DependencyGraph.activate(DependencyContainer { Dependency { Resource("session", log) }.scope(.scoped) })
        #expect(throws: Broken(name: "body")) {
            try DependencyGraph.withScope {
                _ = try DependencyGraph.inject() as Resource
                throw Broken(name: "body")
            }
        }
        #expect(log.all == ["tearDown session"])
    }

    @Test func aFailingTeardownIsReportedAndTheOthersStillRun() throws {
        let log = Log()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Resource("first", log) }.named("first").scope(.scoped)
                Dependency { Resource("second", log, fails: true) }.named("second").scope(.scoped)
            })
        do {
            try DependencyGraph.withScope {
                _ = try DependencyGraph.inject(byName: "first") as Resource
                _ = try DependencyGraph.inject(byName: "second") as Resource
            }
            Issue.record("the failed teardown was swallowed")
        } catch let error as ScopeTeardownError {
            #expect(error.failures.count == 1)
            #expect(error.failures.first?.dependency == .name("second"))
            #expect(error.failures.first?.error as? Broken == Broken(name: "second"))
            #expect(error.description.contains("Name[second]"))
            #expect(error.recoverySuggestion?.hasPrefix("To fix this") == true)
        }
        #expect(log.all == ["tearDown second", "tearDown first"])
    }

    @Test func anAsyncScopeAwaitsAsynchronousTeardown() async throws {
        let log = Log()
        await DependencyGraph.activate(DependencyContainer { Dependency { AsyncResource(log) }.scope(.scoped) })
        try await DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as AsyncResource
            await Task.yield()
        }
        #expect(log.all == ["async tearDown"])
    }

    @Test func anAsyncScopeAwaitsItsAsynchronousTeardownAmongSynchronousOnesAndTheNextScopeStartsEmpty() async throws {
        // The usual end runs without an asynchronous call; a scope with an asynchronous
        // teardown takes the other path, and both leave the task's next scope empty.
        let log = Log()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency {
                    log.add("make first")
                    return Resource("first", log)
                }
                .named("first").scope(.scoped)
                Dependency { AsyncResource(log) }.scope(.scoped)
                Dependency { Resource("last", log) }.named("last").scope(.scoped)
            })
        for awaitsTeardown in [true, false, true] {
            try await DependencyGraph.withScope {
                await Task.yield()  // the asynchronous scope
                _ = try DependencyGraph.inject(byName: "first") as Resource
                _ = try DependencyGraph.inject(byName: "first") as Resource
                if awaitsTeardown { _ = try DependencyGraph.inject() as AsyncResource }
                _ = try DependencyGraph.inject(byName: "last") as Resource
            }
        }
        #expect(
            log.all == [
                "make first", "tearDown last", "async tearDown", "tearDown first",
                "make first", "tearDown last", "tearDown first",
                "make first", "tearDown last", "async tearDown", "tearDown first",
            ])
    }

    @Test func aSynchronousScopeReportsAnAsynchronousTeardownItCannotAwait() throws {
        let log = Log()
        DependencyGraph.activate(DependencyContainer { Dependency { AsyncResource(log) }.scope(.scoped) })
        let error = #expect(throws: ScopeTeardownError.self) {
            try DependencyGraph.withScope { _ = try DependencyGraph.inject() as AsyncResource }
        }
        #expect(error?.failures.first.map { "\($0.error)" }?.contains("await DependencyGraph.withScope") == true)
    }

    @Test(arguments: [false, true])
    func valuesAndExistentialsAreTornDownByWhatTheyAre(asynchronously: Bool) async throws {
        // A struct's teardown is found once for its type; behind `any Closable`, the value
        // (a struct, a class, or neither) decides.
        let log = Log()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { ValueResource(name: "value", log: log) }.scope(.scoped)
                Dependency { ValueResource(name: "boxed value", log: log) as any Closable }.named("value").scope(.scoped)
                Dependency { Resource("boxed object", log) as any Closable }.named("object").scope(.scoped)
                Dependency { Plain() as any Closable }.named("plain").scope(.scoped)
            })
        let inject = {
            _ = try DependencyGraph.inject() as ValueResource
            _ = try DependencyGraph.inject(byName: "value") as any Closable
            _ = try DependencyGraph.inject(byName: "object") as any Closable
            _ = try DependencyGraph.inject(byName: "plain") as any Closable
        }
        if asynchronously {
            try await DependencyGraph.withScope {
                await Task.yield()  // the asynchronous scope
                try inject()
            }
        } else {
            try DependencyGraph.withScope { try inject() }
        }
        #expect(log.all == ["tearDown boxed object", "tearDown boxed value", "tearDown value"])
    }

    @Test func anAsyncScopeThrowsTheFailuresOfSynchronousTeardowns() async throws {
        let log = Log()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Resource("first", log, fails: true) }.named("first").scope(.scoped)
                Dependency { Resource("second", log) }.named("second").scope(.scoped)
            })
        let error = await #expect(throws: ScopeTeardownError.self) {
            try await DependencyGraph.withScope {
                _ = try DependencyGraph.inject(byName: "first") as Resource
                _ = try DependencyGraph.inject(byName: "second") as Resource
                await Task.yield()
            }
        }
        #expect(error?.failures.map { "\($0.error)" } == ["\(Broken(name: "first"))"])
        #expect(log.all == ["tearDown second", "tearDown first"])
    }

    @Test func aCancelledTaskStillTearsDownItsScope() async throws {
        let log = Log()
        let started = AsyncBarrier(parties: 2)
        await DependencyGraph.activate(DependencyContainer { Dependency { Resource("request", log) }.scope(.scoped) })
        let task = Task {
            try await DependencyGraph.withScope {
                _ = try DependencyGraph.inject() as Resource
                await started.arriveAndWait()
                try await Task.sleep(for: .seconds(60))
            }
        }
        await started.arriveAndWait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(log.all == ["tearDown request"])
    }
}
