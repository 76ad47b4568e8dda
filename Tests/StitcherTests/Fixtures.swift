import Foundation
import Stitcher
import Testing

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Weak references to every object made, from any thread, to check that none outlives its
/// last use.
final class WeakCensus: @unchecked Sendable {
    private let lock = NSLock()
    private var references: [() -> AnyObject?] = []

    func track<Object: AnyObject>(_ object: Object) -> Object {
        lock.withLock { references.append { [weak object] in object } }
        return object
    }

    /// How many of the tracked objects are alive.
    var alive: Int { lock.withLock { references.filter { $0() != nil }.count } }
}

/// A flag settable from any thread, for conditional registrations.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var state: Bool

    init(_ state: Bool) { self.state = state }

    var isOn: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return state
        }
        set {
            lock.lock()
            state = newValue
            lock.unlock()
        }
    }
}

/// Runs `body` on `count` new threads at once, in the caller's dependency graph, and waits
/// for all of them; false if they did not all finish within `timeout` seconds.
@discardableResult
func onThreads(_ count: Int, timeout: Double = 60, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let context = DependencyGraph.currentContext
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            start.wait()
            context.run { body(index) }
            group.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    return group.wait(timeout: .now() + timeout) == .success
}

/// Lets threads wait until `parties` arrivals happened; later arrivals pass straight through.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrivals = 0
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    func arriveAndWait(timeout: Double = 10) {
        condition.lock()
        defer { condition.unlock() }
        arrivals += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrivals < parties, condition.wait(until: deadline) {}
    }
}

/// Hands a thread-safe value that is not marked `Sendable` (a subject) to other threads.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Lets tasks wait, suspended, until `parties` arrivals happened; later arrivals pass straight
/// through.
actor AsyncBarrier {
    private var arrivals = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() async {
        arrivals += 1
        if arrivals >= parties {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// A reproducible random generator (SplitMix64): the same seed replays the same choices.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Weak references to every instance a factory made.
final class Made: @unchecked Sendable {
    private let lock = NSLock()
    private var references: [() -> AnyObject?] = []

    func track<T: AnyObject>(_ object: T) -> T {
        lock.lock()
        references.append { [weak object] in object }
        lock.unlock()
        return object
    }

    var alive: Int {
        lock.lock()
        defer { lock.unlock() }
        return references.filter { $0() != nil }.count
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return references.count
    }
}

/// A thread that resolves something in the caller's graph, then parks until released, so
/// that whatever it cached stays cached while the test checks releases.
final class IdleThread: @unchecked Sendable {
    private let resolved = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let context = DependencyGraph.currentContext
        Thread.detachNewThread { [resolved, release, finished] in
            context.run(body)
            resolved.signal()
            release.wait()
            finished.signal()
        }
        resolved.wait()
    }

    func end() {
        release.signal()
        finished.wait()
    }
}

/// Runs `body` on a GCD worker in the caller's graph and waits for it; the worker then
/// goes back to the pool, idle.
func onIdleWorker(_ body: @escaping @Sendable () -> Void) {
    let context = DependencyGraph.currentContext
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { context.run(body) }
    group.wait()
}

/// A type nothing registers (see `inBothPaths`).
private final class UnregisteredProbe: Sendable {}

/// Runs `body` in an indexed and in an unindexed graph, each with `container` active: the
/// direct path answers in the first, the general path in the second, and each test compares
/// them. A first lookup makes the graph's index the one the thread reads, so that in the
/// indexed graph even the body's first lookup can take the direct path.
func inBothPaths(_ container: @escaping () -> DependencyContainer, _ body: (_ path: String) throws -> Void) rethrows {
    for indexed in [true, false] {
        let graph = DependencyGraph.Context.isolated()
        graph.configuration.isIndexingEnabled = indexed
        graph.activate(container())
        try graph.run {
            #expect(try DependencyGraph.inject() as UnregisteredProbe? == nil)
            try body(indexed ? "direct" : "general")
        }
    }
}
