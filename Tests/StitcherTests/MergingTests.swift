import Stitcher
import StitcherTesting
import Testing

private final class Part: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

@Suite(.isolatedDependencyGraph)
struct MergingTests {
    @Test func mergedContainerHoldsEveryPart() throws {
        let a = DependencyContainer { Dependency { Part("a") }.named("a") }
        let b = DependencyContainer { Dependency { Part("b") }.named("b") }
        let c = DependencyContainer { Dependency { Part("c") }.named("c") }
        DependencyGraph.activate(DependencyContainer(merging: a, b, c))
        let names = try ["a", "b", "c"].map { (try DependencyGraph.inject(byName: $0) as Part).name }
        #expect(names == ["a", "b", "c"])
    }

    @Test func laterPartWinsForTheSameIdentity() throws {
        let defaults = DependencyContainer { Dependency { Part("default") } }
        let overrides = DependencyContainer { Dependency { Part("override") } }
        DependencyGraph.activate(DependencyContainer(merging: [defaults, overrides]))
        #expect(try DependencyGraph.inject(byType: Part.self).name == "override")
    }

    @Test func containersCanBeNestedInBuilders() throws {
        let shared = DependencyContainer { Dependency { Part("shared") }.named("shared") }
        DependencyGraph.activate(
            DependencyContainer {
                shared
                Dependency { Part("own") }.named("own")
            })
        #expect(try (DependencyGraph.inject(byName: "shared") as Part).name == "shared")
        #expect(try (DependencyGraph.inject(byName: "own") as Part).name == "own")
    }

    @Test func mergingASequence() throws {
        let parts = (0..<5).map { index in
            DependencyContainer { Dependency { Part("\(index)") }.associated(with: index) }
        }
        DependencyGraph.activate(DependencyContainer(merging: parts.lazy.filter { _ in true }))
        let names = try (0..<5).map { (try DependencyGraph.inject(byValue: $0) as Part).name }
        #expect(names == ["0", "1", "2", "3", "4"])
    }
}
