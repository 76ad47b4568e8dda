import Dispatch
import Foundation
import ScopeWorkload
import Stitcher

// `Profile server-request`: workload 11b (the dependencies of one TodoServer request, in
// an asynchronous scope) next to the same objects made by hand and to swift-dependencies'
// form of it, in alternating bursts run by one task; prints the medians and the median
// ratios. `Profile server-request stitcher [requests]` runs Stitcher's side alone, for a
// profiler (2,000,000 requests unless told); `Profile server-request hand [requests]` the
// hand-written form alone, `Profile server-request swift-dependencies [requests]`
// swift-dependencies' form alone.

/// Runs `body` in a task and waits for it (the workloads start from top-level synchronous
/// code); a failure is printed with `name`.
func runAndWait(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        defer { done.signal() }
        do {
            try await body()
        } catch {
            print("\(name) failed: \(error)")
        }
    }
    done.wait()
}

/// Nanoseconds per request of `count` requests made by `body`.
func nanoseconds(_ count: Int, _ body: (Int) async throws -> AnyObject) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for id in 0..<count { _ = try await body(id) }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
}

func compareServerRequest(only: String?) {
    DependencyGraph.activate(serverRequestContainer())
    let singletons = ServerSingletons()
    runAndWait("server-request") {
        if let only {
            let requests = Int(CommandLine.arguments.dropFirst(3).first ?? "") ?? 2_000_000
            for _ in 0..<max(1, requests / 10_000) {
                _ = try await nanoseconds(min(requests, 10_000)) {
                    switch only {
                    case "hand": try await handWrittenServerRequest(id: $0, singletons)
                    case "swift-dependencies": try await swiftDependenciesServerRequest(id: $0, singletons)
                    default: try await stitcherServerRequest(id: $0)
                    }
                }
            }
            return
        }
        let burst = 5_000
        let times = try await alternatingRounds(
            41,
            [
                { try await nanoseconds(burst) { try await handWrittenServerRequest(id: $0, singletons) } },
                { try await nanoseconds(burst) { try await stitcherServerRequest(id: $0) } },
                { try await nanoseconds(burst) { try await swiftDependenciesServerRequest(id: $0, singletons) } },
            ])
        let (base, ours, theirs) = (times[0], times[1], times[2])
        let ratios = zip(ours, base).map { $0 / $1 }
        let factors = zip(theirs, ours).map { $0 / $1 }
        print(
            "11b server request (async scope, autowired): by hand \(Int(median(base))) ns, "
                + "Stitcher \(Int(median(ours))) ns, ratio \((median(ratios) * 100).rounded() / 100)×, "
                + "cost \(Int(median(ours) - median(base))) ns per request; swift-dependencies (withDependencies "
                + "around objects made by hand) \(Int(median(theirs))) ns, \((median(factors) * 100).rounded() / 100)× Stitcher's")
    }
}

/// Runs each of `measures` once per round, for `rounds` rounds, the first of each round
/// rotating; returns each measure's results, the first round (a warm-up) left out.
func alternatingRounds(_ rounds: Int, _ measures: [() async throws -> Double]) async throws -> [[Double]] {
    var results = Array(repeating: [Double](), count: measures.count)
    for round in 0..<rounds {
        for turn in 0..<measures.count {
            let measure = (round + turn) % measures.count
            let result = try await measures[measure]()
            if round > 0 { results[measure].append(result) }
        }
    }
    return results
}

/// Workload 11b on every core at once, as a server runs requests: `tasks` tasks each make
/// `count` requests; nanoseconds of wall time per request.
private func concurrentNanoseconds(
    tasks: Int, _ count: Int, _ body: @escaping @Sendable (Int) async throws -> AnyObject
) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<tasks {
            group.addTask { for id in 0..<count { _ = try await body(id) } }
        }
        try await group.waitForAll()
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(tasks * count)
}

/// `Profile server-request-parallel`: workload 11b against its hand-written form, each run
/// by as many tasks as there are cores at once (shared counters and locks show here, not
/// in a single task), in alternating bursts; prints both medians and the median ratio.
func compareServerRequestInParallel() {
    DependencyGraph.activate(serverRequestContainer())
    let singletons = ServerSingletons()
    let tasks = ProcessInfo.processInfo.activeProcessorCount
    runAndWait("server-request-parallel") {
        let burst = 5_000
        let times = try await alternatingRounds(
            31,
            [
                { try await concurrentNanoseconds(tasks: tasks, burst) { try await handWrittenServerRequest(id: $0, singletons) } },
                { try await concurrentNanoseconds(tasks: tasks, burst) { try await stitcherServerRequest(id: $0) } },
            ])
        let (base, ours) = (times[0], times[1])
        let ratios = zip(ours, base).map { $0 / $1 }
        print(
            "11b server request on \(tasks) tasks at once: by hand \(Int(median(base))) ns, "
                + "Stitcher \(Int(median(ours))) ns per request (wall time ÷ requests), "
                + "ratio \((median(ratios) * 100).rounded() / 100)×, cost \(Int(median(ours) - median(base))) ns per request")
    }
}

/// The parts of workload 11b, each timed alone (for finding where its time goes).
func serverRequestParts() {
    DependencyGraph.activate(serverRequestContainer())
    let singletons = ServerSingletons()
    runAndWait("server-parts") {
        func report(_ name: String, _ body: (Int) async throws -> AnyObject) async throws {
            var times: [Double] = []
            for _ in 0..<15 { times.append(try await nanoseconds(20_000, body)) }
            print(name, Int(median(times)), "ns")
        }
        let marker = ServerLogger()
        // Every body makes an asynchronous call, so that the scopes are the asynchronous
        // ones a server's middleware opens (a body without one picks the synchronous form).
        func reportInScope(_ name: String, _ body: () throws -> AnyObject) async throws {
            try await report(name) { _ in
                try await DependencyGraph.withScope {
                    await asynchronousStep()
                    return try body()
                }
            }
        }
        try await report("task-local binding (baseline)") { _ in
            await ServerParts.$value.withValue(marker) {
                await asynchronousStep()
                return marker
            }
        }
        try await reportInScope("empty async scope") {
            marker
        }
        try await reportInScope("scope + request (1 scoped build)") {
            try DependencyGraph.inject() as ServerRequest
        }
        try await reportInScope("scope + request twice (build, hit)") {
            _ = try DependencyGraph.inject() as ServerRequest
            return try DependencyGraph.inject() as ServerRequest
        }
        try await reportInScope("scope + unit of work (3 builds)") {
            try DependencyGraph.inject() as ServerUnitOfWork
        }
        try await reportInScope("scope + service (transient, 3 builds)") {
            (try DependencyGraph.inject() as ServerService).unitOfWork
        }
        try await report("singleton (any ServerStore)") { _ in try DependencyGraph.inject() as any ServerStore }
        try await reportInScope("scope + request + service + unit (no handler)") {
            _ = try DependencyGraph.inject() as ServerRequest
            _ = try DependencyGraph.inject() as ServerService
            return try DependencyGraph.inject() as ServerUnitOfWork
        }
        try await report("scope + request + service via async handler + unit") { _ in
            try await DependencyGraph.withScope {
                _ = try DependencyGraph.inject() as ServerRequest
                _ = try await serverHandler { try DependencyGraph.inject() }
                return try DependencyGraph.inject() as ServerUnitOfWork
            }
        }
        try await report("scope + async handler only") { _ in
            try await DependencyGraph.withScope {
                _ = try await serverHandler {
                    handMadeService(id: 0, singletons)
                }
                return marker
            }
        }
        nonisolated(unsafe) var hops = 0
        try await report("scope + async handler only, counting thread changes") { _ in
            try await DependencyGraph.withScope {
                let before = pthread_self()
                _ = try await serverHandler {
                    handMadeService(id: 0, singletons)
                }
                if pthread_self() != before { hops += 1 }
                return marker
            }
        }
        print("thread changes:", hops)
        hops = 0
        try await report("task-local + async handler only, counting thread changes") { _ in
            try await ServerParts.$value.withValue(marker) {
                let before = pthread_self()
                _ = try await serverHandler {
                    handMadeService(id: 0, singletons)
                }
                if pthread_self() != before { hops += 1 }
                return marker
            }
        }
        print("thread changes:", hops)
        try await report("whole request") { try await stitcherServerRequest(id: $0) }
    }
}

enum ServerParts {
    @TaskLocal static var value: ServerLogger?
}

/// One part of workload 11b for a profiler: an async handler called inside a scope, or
/// inside a task-local binding.
func serverHandlerLoop(inScope: Bool) {
    DependencyGraph.activate(serverRequestContainer())
    runAndWait("handler loop") {
        let marker = ServerLogger()
        let singletons = ServerSingletons()
        let make = { handMadeService(id: 0, singletons) }
        for _ in 0..<5_000_000 {
            if inScope {
                _ = try? await DependencyGraph.withScope { try await serverHandler(make) }
            } else {
                _ = try? await ServerParts.$value.withValue(marker) { try await serverHandler(make) }
            }
        }
    }
}

/// Workload 11b's injections in a scope, made directly in its body or in an asynchronous
/// handler it calls (for a profiler).
func serverInjectionLoop(inHandler: Bool, onlyRequest: Bool = false) {
    DependencyGraph.activate(serverRequestContainer())
    runAndWait("injection loop") {
        for _ in 0..<2_000_000 {
            _ = try? await DependencyGraph.withScope {
                _ = try DependencyGraph.inject() as ServerRequest
                if onlyRequest { return ServerLogger() as AnyObject }
                if inHandler {
                    _ = try await serverHandler { try DependencyGraph.inject() }
                } else {
                    _ = try DependencyGraph.inject() as ServerService
                }
                return try DependencyGraph.inject() as ServerUnitOfWork
            }
        }
    }
}
