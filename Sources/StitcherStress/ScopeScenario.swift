import Atomics
import Foundation
import Stitcher

/// A `.scoped` probe that counts its teardowns: each instance must be torn down exactly once.
final class TornDown: Probe, TeardownAware, @unchecked Sendable {
    static let teardowns = ManagedAtomic<Int>(0)
    func tearDown() { Self.teardowns.wrappingIncrement(ordering: .relaxed) }
}

/// `TornDown` with an asynchronous teardown, which a task-bound scope awaits when it ends
/// (the other end of a scope, which most scopes do not take).
final class AsyncTornDown: Probe, AsyncTeardownAware, @unchecked Sendable {
    static let teardowns = ManagedAtomic<Int>(0)
    func tearDown() async {
        await Task.yield()
        Self.teardowns.wrappingIncrement(ordering: .relaxed)
    }
}

/// What one request saw, by registration name: the identities every injection returned.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var identities: [String: Set<ObjectIdentifier>] = [:]

    func record(_ name: String, _ probe: Probe) {
        lock.lock()
        identities[name, default: []].insert(ObjectIdentifier(probe))
        lock.unlock()
    }

    /// Throws when one registration gave two instances in the request's scope.
    func checkOnePerName() throws {
        lock.lock()
        defer { lock.unlock() }
        for (name, seen) in identities where seen.count > 1 {
            throw StressFailure("\(name): \(seen.count) instances in one scope")
        }
    }
}

/// Runs `body` on a new thread in `context` (which shares its scope across threads), and
/// returns a wait for it that rethrows the thread's error.
private func onThread(_ context: DependencyGraph.Context, _ body: @escaping @Sendable () throws -> Void) -> () throws -> Void {
    let failure = Protected<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        defer { done.signal() }
        do { try context.run(body) } catch { failure.withLock { $0 = error } }
    }
    return {
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// One injection by name in the scenario's graph, checked and recorded in `seen` (transients
/// are not recorded). The flaky factory's failure is an answer: the next injection builds it.
private func injectChecked(_ name: String, _ seen: Seen) throws {
    let found = Result { try injectNamed(name) }
    let probe: Probe
    switch found {
    case .success(let injected): probe = injected
    case .failure where name == "flaky": return
    case .failure(let error): throw StressFailure("\(name): \(error)")
    }
    try probe.check("scoped \(name)", tags: 1...8)
    if name != "user" { seen.record(name, probe) }
}

/// The names of the keyed registration's instances a request injects: "k3" is the instance
/// for parameter 3. With the seven names, a request's scope serves up to 19 slots, past the
/// first room of its slots (8) and past the count at which it indexes them (16).
private let keyedNames = (0..<12).map { "k\($0)" }

/// The instance `name` stands for in the current scope (see `keyedNames`).
private func injectNamed(_ name: String) throws -> Probe {
    if name == "c" { return try DependencyGraph.inject(byName: name) as TornDown }
    if name.hasPrefix("k"), let number = Int(name.dropFirst()) {
        return try DependencyGraph.inject(byName: "keyed", parameters: number) as Svc
    }
    return try DependencyGraph.inject(byName: name) as Svc
}

extension Scenarios {
    /// Request scopes, synchronous and bound to tasks, whose `.scoped` instances are claimed,
    /// built, read and torn down from several threads and tasks at once.
    static let scopes = Scenario(
        name: "scopes",
        summary: "4 threads open request scopes (a third bound to tasks, with 4 child tasks and a thread carrying the "
            + "context; a third shared with a thread mid-body; any shared mid-build by a factory) and race for their "
            + ".scoped instances (up to 19 a scope, 12 of them by parameter value), nested, failing and torn down"
    ) { runner in
        let census = Census()
        let calls = ManagedAtomic<Int>(0)
        let builds = ManagedAtomic<Int>(0)
        let asyncBuilds = ManagedAtomic<Int>(0)
        TornDown.teardowns.store(0, ordering: .relaxed)
        AsyncTornDown.teardowns.store(0, ordering: .relaxed)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(named: "a") { Svc(tag: 1, census: census) }.scope(.scoped)
                Dependency(named: "b") { () throws -> Svc in
                    let a: Svc = try DependencyGraph.inject(byName: "a")
                    try a.check("a, injected by b's factory", tags: 1...1)
                    return Svc(tag: 2, census: census)
                }
                .scope(.scoped)
                Dependency(named: "c") { () throws -> TornDown in
                    _ = try DependencyGraph.inject(byName: "b") as Svc
                    _ = try DependencyGraph.inject(byName: "a") as Svc
                    builds.wrappingIncrement(ordering: .relaxed)
                    return TornDown(tag: 3, census: census)
                }
                .scope(.scoped)
                // Fails one call in three: the next injection in the scope builds it.
                Dependency(named: "flaky") { () throws -> Svc in
                    if calls.wrappingIncrementThenLoad(ordering: .relaxed) % 3 == 0 { throw StressFailure("flaky") }
                    return Svc(tag: 4, census: census)
                }
                .scope(.scoped)
                // Opens a scope of its own: the instance of "a" it sees is not the request's.
                Dependency(named: "nested") { () throws -> Svc in
                    let outer: Svc = try DependencyGraph.inject(byName: "a")
                    let inner: Svc = try DependencyGraph.withScope { try DependencyGraph.inject(byName: "a") }
                    if inner === outer { throw StressFailure("a nested scope served its enclosing scope's instance") }
                    return Svc(tag: 5, census: census)
                }
                .scope(.scoped)
                // Transient: its nested injections read the request's scope through the
                // resolution in progress.
                Dependency(named: "user") { () throws -> Svc in
                    _ = try DependencyGraph.inject(byName: "c") as TornDown
                    return Svc(tag: 6, census: census)
                }
                .scope(.instance)
                // Shares the synchronous scope of its build with another thread (capturing the
                // context turns its slots over to the lock mid-build), which builds and reads
                // the scope's other instances while this factory waits for it.
                Dependency(named: "share") { () throws -> Svc in
                    let seen = Seen()
                    let wait = onThread(DependencyGraph.currentContext) {
                        for name in ["c", "a", "flaky", "b", "user"] { try injectChecked(name, seen) }
                    }
                    try wait()
                    try seen.checkOnePerName()
                    return Svc(tag: 7, census: census)
                }
                .scope(.scoped)
                // Asked for by half the task-bound scopes, at the end of the body.
                Dependency(named: "awaited") { () -> AsyncTornDown in
                    asyncBuilds.wrappingIncrement(ordering: .relaxed)
                    return AsyncTornDown(tag: 9, census: census)
                }
                .scope(.scoped)
                // One instance per parameter value in each scope (see `keyedNames`).
                Dependency { (number: Int) in Svc(tag: 8, census: census) }.named("keyed").scope(.scoped)
            })
        let names = ["a", "b", "c", "flaky", "nested", "user", "share"] + keyedNames
        let step: Runner.Step = { random in
            let seen = Seen()
            let order = names.shuffled(using: &random)
            let kind = Int.random(in: 0..<4, using: &random)
            if kind == 0 {
                // Synchronous, reached by its own thread only until "share" (if it comes
                // first) hands it to another.
                try DependencyGraph.withScope {
                    for name in order { try injectChecked(name, seen) }
                    try injectChecked(order[0], seen)
                }
            } else if kind == 3 {
                // A context that outlives its synchronous scope, used on another thread while
                // this one opens its next scope (a thread reuses the store of a scope it ended
                // when nothing else holds it): a late injection finds its scope ended, and is
                // never served by the next scope.
                let ended = DispatchSemaphore(value: 0)
                var late: (() throws -> Void)?
                try DependencyGraph.withScope {
                    for name in order { try injectChecked(name, seen) }
                    late = onThread(DependencyGraph.currentContext) {
                        ended.wait()
                        for name in names {
                            do {
                                _ = try injectNamed(name)
                                throw StressFailure("\(name) was served through a context after its scope ended")
                            } catch let error as DependencyScopeError where error.reason == .scopeEnded {}
                        }
                    }
                }
                ended.signal()
                try DependencyGraph.withScope {
                    for name in order { try injectChecked(name, Seen()) }
                }
                try late?()
            } else if kind == 1 {
                // Synchronous, shared with a thread at a random point of the body: both race
                // for the instances from then on (the owner's builds in progress included).
                let shareAt = Int.random(in: 0...order.count, using: &random)
                let seed = UInt64.random(in: 0...UInt64.max, using: &random)
                try DependencyGraph.withScope {
                    var wait: (() throws -> Void)?
                    for (position, name) in order.enumerated() {
                        if position == shareAt {
                            wait = onThread(DependencyGraph.currentContext) {
                                var random = SeededGenerator(seed: seed)
                                for name in names.shuffled(using: &random) { try injectChecked(name, seen) }
                            }
                        }
                        try injectChecked(name, seen)
                    }
                    // The thread ends before the scope does: its instances are the scope's.
                    try wait?()
                    try injectChecked(order[0], seen)
                }
            } else {
                let seeds = (0..<5).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
                let awaitsTeardown = Bool.random(using: &random)
                let failure = Protected<(any Error)?>(nil)
                let done = DispatchSemaphore(value: 0)
                Task {
                    defer { done.signal() }
                    do {
                        try await DependencyGraph.withScope {
                            await Task.yield()
                            let context = DependencyGraph.currentContext
                            let thread = DispatchSemaphore(value: 0)
                            Thread.detachNewThread {
                                defer { thread.signal() }
                                var random = SeededGenerator(seed: seeds[4])
                                do {
                                    try context.run { for name in names.shuffled(using: &random) { try injectChecked(name, seen) } }
                                } catch {
                                    failure.withLock { $0 = error }
                                }
                            }
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                for child in 0..<4 {
                                    group.addTask {
                                        var random = SeededGenerator(seed: seeds[child])
                                        for name in names.shuffled(using: &random) { try injectChecked(name, seen) }
                                    }
                                }
                                try await group.waitForAll()
                            }
                            // The thread ends before the scope does: its instances are the scope's.
                            await withCheckedContinuation { continuation in
                                DispatchQueue.global().async {
                                    thread.wait()
                                    continuation.resume()
                                }
                            }
                            if awaitsTeardown { _ = try DependencyGraph.inject(byName: "awaited") as AsyncTornDown }
                        }
                    } catch {
                        failure.withLock { $0 = error }
                    }
                }
                done.wait()
                if let error = failure.withLock({ $0 }) { throw error }
            }
            try seen.checkOnePerName()
        }
        var outcome = runner.run(Array(repeating: ("scopes", step), count: 4))
        let (built, tornDown) = (builds.load(ordering: .relaxed), TornDown.teardowns.load(ordering: .relaxed))
        if built != tornDown { outcome.failures.append("\(built) instances of c built, \(tornDown) torn down") }
        let (awaited, awaitedTornDown) = (asyncBuilds.load(ordering: .relaxed), AsyncTornDown.teardowns.load(ordering: .relaxed))
        if awaited != awaitedTornDown {
            outcome.failures.append("\(awaited) instances with an asynchronous teardown built, \(awaitedTornDown) torn down")
        }
        return released(census, outcome)
    }
}
