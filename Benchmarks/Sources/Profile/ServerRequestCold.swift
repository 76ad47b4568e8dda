import Dispatch
import Foundation
import ScopeWorkload
import Stitcher

// `Profile server-request-cold [kilobytes]`: workload 11b as a server runs it, between other
// work. In a loop, a request's code and data stay in the processor's caches from one
// request to the next; in a server, the HTTP, JSON and networking code between two requests
// evicts them, and every request fetches them again. Here each request follows a write to
// every cache line of a buffer (1,024 KB unless told), in each form; the difference from the
// hand-written form is what Stitcher's request (and swift-dependencies' form of it, which
// binds objects made by hand) costs when it starts cold. Alternating bursts; prints the
// medians.

/// A buffer written line by line before each request, to evict what the previous one left
/// in the caches.
private final class CacheEvictor: @unchecked Sendable {
    private let words: UnsafeMutablePointer<UInt64>
    private let count: Int

    init(kilobytes: Int) {
        count = kilobytes * 1024 / 8
        words = .allocate(capacity: count)
        words.initialize(repeating: 0, count: count)
    }

    /// Writes one word of every 64-byte line.
    @inline(never)
    func evict() {
        for index in stride(from: 0, to: count, by: 8) { words[index] &+= 1 }
    }
}

func compareColdServerRequest(kilobytes: Int) {
    DependencyGraph.activate(serverRequestContainer())
    let singletons = ServerSingletons()
    let evictor = CacheEvictor(kilobytes: kilobytes)
    runAndWait("server-request-cold") {
        let burst = 500
        let times = try await alternatingRounds(
            61,
            [
                {
                    try await nanoseconds(burst) { id in
                        evictor.evict()
                        return try await handWrittenServerRequest(id: id, singletons)
                    }
                },
                {
                    try await nanoseconds(burst) { id in
                        evictor.evict()
                        return try await stitcherServerRequest(id: id)
                    }
                },
                {
                    try await nanoseconds(burst) { id in
                        evictor.evict()
                        return try await swiftDependenciesServerRequest(id: id, singletons)
                    }
                },
            ])
        let (base, ours, theirs) = (times[0], times[1], times[2])
        let costs = zip(ours, base).map { $0 - $1 }
        let theirCosts = zip(theirs, base).map { $0 - $1 }
        print(
            "11b server request after evicting \(kilobytes) KB: by hand \(Int(median(base))) ns, "
                + "Stitcher \(Int(median(ours))) ns (each with the eviction), cost \(Int(median(costs))) ns per request "
                + "(median of the rounds' differences); swift-dependencies (withDependencies around objects made by hand) "
                + "\(Int(median(theirs))) ns, cost \(Int(median(theirCosts))) ns")
    }
}
