import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Thing: Sendable {}

@Suite(.isolatedDependencyGraph)
struct GraphChangeTests {
    @Test func publisherFiresOnActivationDeactivationAndReset() throws {
        let events = Counter()
        let subscription = DependencyGraph.graphChangedPublisher.sink { events.increment() }
        let scope = PassthroughSubject<Void, Never>()
        let container = DependencyContainer { Dependency { Thing() }.scope(.managed(by: scope)) }
        DependencyGraph.activate(container)
        #expect(events.value == 1)
        scope.send()
        #expect(events.value == 2)
        DependencyGraph.deactivate(container)
        #expect(events.value == 3)
        DependencyGraph.deactivateAll()
        #expect(events.value == 3, "nothing was active")
        subscription.cancel()
    }

    @Test func asyncSequenceDeliversEveryChangeIncludingInvalidations() async throws {
        let changes = DependencyGraph.graphChanges
        let subject = PassthroughSubject<Void, Never>()
        let flag = Flag(false)
        let container = DependencyContainer {
            if flag.isOn { Dependency { Thing() } }
        }
        .invalidated(tracking: subject)
        await DependencyGraph.activate(container)
        flag.isOn = true
        subject.send()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() != nil, "activation")
        #expect(await iterator.next() != nil, "invalidation, delivered once the rebuild ran")
        #expect((try DependencyGraph.inject() as Thing?) != nil)
        DependencyGraph.deactivate(container)
        #expect(await iterator.next() != nil, "deactivation")
    }

    @Test func autoreloadFollowsInvalidations() async throws {
        let subject = PassthroughSubject<Void, Never>()
        let flag = Flag(false)
        await DependencyGraph.activate(
            DependencyContainer {
                if flag.isOn { Dependency { Thing() } }
            }
            .invalidated(tracking: subject))
        final class Holder: @unchecked Sendable { @Injected var thing: Thing? }
        let holder = Holder()
        #expect(holder.thing == nil)
        holder.$thing.autoreload()
        var changes = DependencyGraph.graphChanges.makeAsyncIterator()
        flag.isOn = true
        subject.send()
        _ = await changes.next()
        #expect(holder.thing != nil)
    }

    @Test func validationWalksActiveRegistrations() throws {
        enum Problem: Error { case notASingleton(String) }
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Thing() }.scope(.singleton).named("thing")
                Dependency { (id: Int) in Thing() }
            })
        var calls = 0
        DependencyGraph.validate { registrar in
            calls += 1
            #expect(registrar.count == 2 && !registrar.isEmpty)
            #expect(
                registrar.registrations.map(\.description)
                    == ["Name[thing] () -> Thing, singleton", "Type[Thing] (Int) -> Thing, shared"])
            #expect(registrar.matches(where: { $0.isLocatedBy(type: Thing.self) }).count == 1, "the named one is located by name")
            registrar.withMatches(where: { $0.eagerness == .lazy }) { #expect($0.count == 2) }
            registrar.withFirstMatch(where: { $0.isLocatedBy(value: 1) }) { #expect($0 == nil) }
        }
        #expect(calls == 1, "called once with every registration")
        #expect(throws: Problem.self) {
            try DependencyGraph.validate { registrar in
                try registrar.withFirstMatch(where: { $0.isLocatedBy(type: Thing.self) }) { registration in
                    if let registration, registration.scope != .singleton {
                        throw Problem.notASingleton(registration.typeName)
                    }
                }
            }
        }
        #expect(DependencyGraph.activeRegistrations.filter { $0.isLocatedBy(name: "thing") }.count == 1)
        #expect(DependencyGraph.activeRegistrations.last?.parameterTypeNames == ["Int"])
    }
}
