import Stitcher
import StitcherTesting
import Testing

private final class Managed: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class App {
    @Dependencies
    var container = DependencyContainer {
        Dependency { Managed("first") }
    }
}

@Suite(.isolatedDependencyGraph)
struct DependenciesTests {
    @Test func activatesOnInitAndDeactivatesWithItsOwner() throws {
        var app: App? = App()
        #expect(try DependencyGraph.inject(byType: Managed.self).label == "first")
        weak let container = app?.container
        app = nil
        let missing: Managed? = try DependencyGraph.inject()
        #expect(missing == nil)
        #expect(container == nil, "the graph does not keep deactivated containers")
    }

    @Test func assigningReplacesTheActiveContainer() throws {
        let app = App()
        let old = app.container
        app.container = DependencyContainer { Dependency { Managed("second") } }
        #expect(!DependencyGraph.isActive(old))
        #expect(try DependencyGraph.inject(byType: Managed.self).label == "second")
    }

    @Test func setContainerAsyncAndWithCompletion() async throws {
        let app = App()
        await app.$container.setContainer(DependencyContainer { Dependency { Managed("async") } })
        #expect(try DependencyGraph.inject(byType: Managed.self).label == "async")
        let done = Counter()
        app.$container.setContainer(DependencyContainer { Dependency { Managed("completion") } }) {
            done.increment()
        }
        #expect(done.value == 1)
        #expect(try DependencyGraph.inject(byType: Managed.self).label == "completion")
    }
}
