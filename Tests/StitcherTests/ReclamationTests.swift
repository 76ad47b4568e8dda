import Foundation
import Testing

@testable import Stitcher

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Held: @unchecked Sendable {}
private final class SlowSingleton: @unchecked Sendable {}

/// Opens when told, for tasks that wait for it.
private actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }
    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

/// What entries leave behind when they leave the graph: nothing that grows with the number
/// of renewals, and nothing freed recursively (docs/Reclamation.md). The release-mode
/// scenarios of the same failures run in `stitcher-stress` (`.ci/run`).
struct ReclamationTests {
    /// A thread idle since before thousands of `releaseInstances()` calls, on a stack the size
    /// of a secondary thread's on Apple platforms, injects again: 24edf6f kept every renewed
    /// entry in a chain behind the idle thread's snapshot and overflowed the stack walking
    /// (and freeing) it.
    @Test func aThreadIdleAcrossManyReleasesInjectsOnASmallStack() throws {
        let context = DependencyGraph.Context.isolated()
        context.activate(DependencyContainer { Dependency { Held() }.scope(.singleton) })
        let first = Protected<Held?>(nil)
        let again = Protected<Held?>(nil)
        let injected = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            first.withLock { $0 = try? context.inject() }
            injected.signal()
            resume.wait()
            again.withLock { $0 = try? context.inject() }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        injected.wait()
        for _ in 0..<3_000 { context.releaseInstances() }
        resume.signal()
        done.wait()
        let (before, after) = (first.withLock { $0 }, again.withLock { $0 })
        #expect(before != nil && after != nil)
        #expect(before !== after, "each release drops the singleton: the next injection builds another")
    }

    /// A renewed entry is not kept alive by the entry it replaced: however many times a
    /// managed scope is reset, a thread that cached an old snapshot holds one entry.
    @Test func renewedEntriesAreNotChainedBehindRetiredOnes() throws {
        let context = DependencyGraph.Context.isolated()
        let resets = PassthroughSubject<Void, Never>()
        context.activate(DependencyContainer { Dependency { Held() }.scope(.managed(by: resets)) })
        let _: Held = try context.inject()
        // This thread's cache keeps the first entry; the renewals below publish others.
        let oldest = context.graph.lock.withLock { context.graph.current.entries[0] }
        resets.send()
        weak let renewed = context.graph.lock.withLock { context.graph.current.entries[0] }
        #expect(renewed != nil && renewed !== oldest)
        for _ in 0..<100 { resets.send() }
        #expect(renewed == nil, "no retired entry links to the entry that replaced it")
        withExtendedLifetime(oldest) {}
    }

    /// A build that finishes after its entry was retired serves the resolutions that waited
    /// for it: the factory runs once, not once per waiter.
    @Test func waitersGetTheBuildTheyWaitedForWhenItsEntryRetires() async throws {
        let context = DependencyGraph.Context.isolated()
        let gate = Gate()
        let builds = Counter()
        await context.activate(
            DependencyContainer {
                Dependency { () async -> SlowSingleton in
                    builds.increment()
                    await gate.wait()
                    return SlowSingleton()
                }.scope(.singleton)
            })
        let entry = context.graph.lock.withLock { context.graph.current.entries[0] }
        let builder = Task { try await context.injectAsync() as SlowSingleton }
        while builds.value == 0 { await Task.yield() }
        let waiter = Task { try await context.injectAsync() as SlowSingleton }
        while entry.lock.withLock({ entry.state(creating: false)?.asyncWaiters.count ?? 0 }) == 0 { await Task.yield() }
        // The entry leaves the graph while its build is in progress and a resolution waits.
        context.releaseInstances()
        await gate.open()
        let (built, waited) = (try await builder.value, try await waiter.value)
        #expect(built === waited, "the waiter got the build it waited for")
        #expect(builds.value == 1)
    }
}
