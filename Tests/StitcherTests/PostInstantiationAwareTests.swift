import Stitcher
import StitcherTesting
import Testing

private final class Tracker: PostInstantiationAware, @unchecked Sendable {
    let calls = Counter()
    private(set) var wasReadyWhenReturned = false
    func didInstantiate() { calls.increment() }
}

private class Plain: @unchecked Sendable {}

private final class AwareSubclass: Plain, PostInstantiationAware, @unchecked Sendable {
    let calls = Counter()
    func didInstantiate() { calls.increment() }
}

private protocol Service: Sendable {}

private struct AwareValue: Service, PostInstantiationAware {
    let calls = Counter()
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

    @Test func calledForAnAwareSubclassRegisteredAsItsPlainSuperclass() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { AwareSubclass() as Plain } })
        let instance = try #require(try DependencyGraph.inject(byType: Plain.self) as? AwareSubclass)
        #expect(instance.calls.value == 1)
    }

    @Test func calledForAnAwareValueBehindAnExistential() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { AwareValue() as any Service } })
        let value = try #require(try DependencyGraph.inject(byType: (any Service).self) as? AwareValue)
        #expect(value.calls.value == 1)
    }

    @Test func calledForInstancesOfAnAsyncFactory() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Tracker in
                    await Task.yield()
                    return Tracker()
                }
            })
        let tracker: Tracker = try await DependencyGraph.injectAsync(byType: Tracker.self)
        #expect(tracker.calls.value == 1)
    }

    @Test func registrationsAlternatingBetweenAwareAndPlainTypesEachGetTheirAnswer() throws {
        DependencyGraph.activate(
            DependencyContainer {
                for index in 0..<6 {
                    if index.isMultiple(of: 2) {
                        Dependency { Plain() }.named("plain-\(index)").scope(.instance)
                    } else {
                        Dependency { Tracker() }.named("aware-\(index)").scope(.instance)
                    }
                }
            })
        for index in stride(from: 1, to: 6, by: 2) {
            let tracker: Tracker = try DependencyGraph.inject(byName: "aware-\(index)")
            #expect(tracker.calls.value == 1)
        }
        let plain: Plain = try DependencyGraph.inject(byName: "plain-0")
        #expect(!(plain is PostInstantiationAware))
    }
}
