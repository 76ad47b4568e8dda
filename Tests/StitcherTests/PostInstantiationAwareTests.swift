import Testing
import Stitcher
import StitcherTesting

private final class Tracker: PostInstantiationAware, @unchecked Sendable {
    let calls = Counter()
    private(set) var wasReadyWhenReturned = false
    func didInstantiate() { calls.increment() }
}

@Suite(.isolatedDependencyGraph)
struct PostInstantiationAwareTests {
    @Test(arguments: [DependencyScope.instance, .shared, .singleton])
    func calledOncePerNewInstanceBeforeItIsReturned(scope: DependencyScope) throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Tracker() }.scope(scope) })
        let first: Tracker = try DependencyGraph.inject()
        #expect(first.calls.value == 1)
        let second: Tracker = try DependencyGraph.inject()
        #expect(second.calls.value == 1)
        #expect((first === second) == (scope != .instance))
    }

    @Test func calledForEagerInstances() throws {
        let container = DependencyContainer { Dependency { Tracker() }.scope(.singleton).eagerness(.eager) }
        DependencyGraph.activate(container)
        let tracker: Tracker = try DependencyGraph.inject()
        #expect(tracker.calls.value == 1)
    }

    @Test func calledForInstancesRegisteredAsAProtocol() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Tracker() as PostInstantiationAware } })
        let tracker = try #require(try DependencyGraph.inject(byType: PostInstantiationAware.self) as? Tracker)
        #expect(tracker.calls.value == 1)
    }
}
