import Stitcher
import StitcherTesting
import Testing

private final class Probe: Sendable {
    let owner: Int
    init(_ owner: Int) { self.owner = owner }
}

@Suite
struct IsolationTests {
    @Test(.isolatedDependencyGraph, arguments: 0..<16)
    func parallelTestsSeeOnlyTheirOwnContainers(owner: Int) async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Probe(owner) }.scope(.singleton) })
        for _ in 0..<50 {
            #expect(try DependencyGraph.inject(byType: Probe.self).owner == owner)
            await Task.yield()
        }
        let all: [Probe] = try DependencyGraph.inject()
        #expect(all.map(\.owner) == [owner])
    }

    @Test func isolatedGraphsStartEmptyAndAreDeactivatedAfterwards() throws {
        weak var leaked: Probe?
        try DependencyGraph.withIsolatedGraph {
            let missing: Probe? = try DependencyGraph.inject()
            #expect(missing == nil)
            DependencyGraph.activate(DependencyContainer { Dependency { Probe(1) }.scope(.singleton) })
            leaked = try DependencyGraph.inject(byType: Probe.self)
            #expect(leaked != nil)
            try DependencyGraph.withIsolatedGraph {
                let inner: Probe? = try DependencyGraph.inject()
                #expect(inner == nil, "a nested isolated graph is a new graph")
            }
            #expect(try DependencyGraph.inject(byType: Probe.self).owner == 1)
        }
        #expect(leaked == nil, "leaving the isolated graph deactivates its containers")
    }

    @Test func childTasksInheritTheIsolatedGraph() async throws {
        try await DependencyGraph.withIsolatedGraph {
            DependencyGraph.activate(DependencyContainer { Dependency { Probe(7) } }) {}
            let child = Task { try DependencyGraph.inject(byType: Probe.self).owner }
            let owner = try await child.value
            #expect(owner == 7)
        }
    }

    @Test func capturedContextCarriesTheGraphToOtherThreads() {
        DependencyGraph.withIsolatedGraph {
            DependencyGraph.activate(DependencyContainer { Dependency { Probe(9) } })
            let owners = Counter()
            onThreads(2) { _ in
                if (try? DependencyGraph.inject(byType: Probe.self).owner) == 9 { owners.increment() }
            }
            #expect(owners.value == 2)
        }
    }
}
