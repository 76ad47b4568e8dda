import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Scoped: @unchecked Sendable {
    static let built = Counter()
    let serial: Int
    init() { serial = Self.built.increment() }
}
private struct ScopedValue { let serial = UUID() }

private struct UserAccount { let id: Int }

/// The `PrincipalDatasource` sample of the README, verbatim apart from indentation.
private class PrincipalDatasource: ManagedDependencyScopeProviding {
    class Observation: ManagedDependencyScopeReceipt {
        typealias Handler = () -> Void
        private(set) var callback: Handler?
        var isCancelled: Bool {
            callback == nil
        }
        init(callback: @escaping Handler) {
            self.callback = callback
        }
        func cancel() {
            callback = nil
        }
    }
    private var observations: [Observation]
    var principal: UserAccount? {
        didSet {
            guard oldValue?.id != principal?.id else {
                return
            }
            principalChanged()
        }
    }
    init(principal: UserAccount?) {
        self.principal = principal
        self.observations = []
    }
    private func principalChanged() {
        observations.removeAll(where: { $0.isCancelled })
        observations.forEach({ $0.callback?() })
    }
    func onScopeInvalidated(perform action: @escaping () -> Void) -> any ManagedDependencyScopeReceipt {
        let observation = Observation(callback: action)
        observations.append(observation)
        return observation
    }
    var activeObservations: Int { observations.filter { !$0.isCancelled }.count }
}

@Suite(.isolatedDependencyGraph)
struct ScopeTests {
    @Test func instanceScopeBuildsEveryTime() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Scoped() }.scope(.instance) })
        let a: Scoped = try DependencyGraph.inject()
        let b: Scoped = try DependencyGraph.inject()
        #expect(a !== b)
    }

    @Test func sharedScopeReusesWhileHeldAndRebuildsAfterRelease() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Scoped() }.scope(.shared) })
        var held: Scoped? = try DependencyGraph.inject()
        let again: Scoped = try DependencyGraph.inject()
        #expect(held === again)
        weak let weakHeld = held
        let firstSerial = again.serial
        held = nil
        _ = consume again
        #expect(weakHeld == nil, "the graph holds shared instances weakly")
        let rebuilt: Scoped = try DependencyGraph.inject()
        #expect(rebuilt.serial != firstSerial)
    }

    @Test func sharedValueTypesBehaveAsInstances() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { ScopedValue() }.scope(.shared) })
        let a: ScopedValue = try DependencyGraph.inject()
        let b: ScopedValue = try DependencyGraph.inject()
        #expect(a.serial != b.serial)
    }

    @Test func singletonScopeKeepsOneUntilDeactivation() throws {
        let container = DependencyContainer { Dependency { Scoped() }.scope(.singleton) }
        DependencyGraph.activate(container)
        weak var first: Scoped?
        do {
            let instance: Scoped = try DependencyGraph.inject()
            first = instance
        }
        #expect(first != nil, "the graph keeps singletons strongly")
        let again: Scoped = try DependencyGraph.inject()
        #expect(again === first)
        _ = consume again
        DependencyGraph.deactivate(container)
        #expect(first == nil, "deactivation releases the singleton")
        DependencyGraph.activate(container)
        let rebuilt: Scoped = try DependencyGraph.inject()
        #expect(rebuilt.serial > 0 && rebuilt !== first)
    }

    @Test func singletonValueTypesAreStoredToo() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { ScopedValue() }.scope(.singleton) })
        let a: ScopedValue = try DependencyGraph.inject()
        let b: ScopedValue = try DependencyGraph.inject()
        #expect(a.serial == b.serial)
    }

    @Test func managedByPublisherResetsWhenItEmits() throws {
        let subject = PassthroughSubject<Int, Never>()
        DependencyGraph.activate(DependencyContainer { Dependency { Scoped() }.scope(.managed(by: subject)) })
        let a: Scoped = try DependencyGraph.inject()
        let b: Scoped = try DependencyGraph.inject()
        #expect(a === b)
        subject.send(1)
        let c: Scoped = try DependencyGraph.inject()
        #expect(c !== a)
        let d: Scoped = try DependencyGraph.inject()
        #expect(c === d)
    }

    @Test func managedByProviderResetsOnInvalidationAndCancelsOnDeactivation() throws {
        let datasource = PrincipalDatasource(principal: UserAccount(id: 1))
        let container = DependencyContainer { Dependency { Scoped() }.scope(.managed(datasource)) }
        DependencyGraph.activate(container)
        #expect(datasource.activeObservations == 1)
        let a: Scoped = try DependencyGraph.inject()
        datasource.principal = UserAccount(id: 1)
        #expect(try DependencyGraph.inject(byType: Scoped.self) === a, "same principal: no invalidation")
        datasource.principal = UserAccount(id: 2)
        let b: Scoped = try DependencyGraph.inject()
        #expect(b !== a)
        DependencyGraph.deactivate(container)
        #expect(datasource.activeObservations == 0)
    }

    @Test func managedResetKeepsOtherInstances() throws {
        let subject = PassthroughSubject<Void, Never>()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Scoped() }.scope(.managed(by: subject))
                Dependency { Scoped() }.scope(.singleton).named("singleton")
            })
        let singleton: Scoped = try DependencyGraph.inject(byName: "singleton")
        subject.send()
        #expect(try (DependencyGraph.inject(byName: "singleton") as Scoped) === singleton)
    }

    @Test func scopesCompareAndDescribeThemselves() {
        let datasource = PrincipalDatasource(principal: nil)
        #expect(DependencyScope.managed(datasource) == .managed(datasource))
        #expect(DependencyScope.managed(datasource) != .managed(PrincipalDatasource(principal: nil)))
        #expect(DependencyScope.singleton != .shared)
        #expect(DependencyScope.instance.description == "instance")
    }
}
