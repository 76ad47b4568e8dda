import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

// The shapes apps inject most (by protocol, by superclass, values, optionals), each run in an
// indexed graph, where lookups known at activation take the direct path, and in an unindexed
// one, where every lookup takes the general path: same instances, same errors.

private protocol Service: AnyObject { var id: Int { get } }
private protocol Auditing: AnyObject {}
private protocol Unrelated {}
private final class ServiceImpl: Service, Auditing, @unchecked Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}
private protocol Valued { var tag: Int { get } }
private struct Value: Valued, Equatable, Sendable { var tag: Int }
private final class OtherService: Service, @unchecked Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}
private final class ParameterizedService: Service, @unchecked Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}
private class Base: @unchecked Sendable {}
private final class Derived: Base, @unchecked Sendable {}
private final class OtherDerived: Base, @unchecked Sendable {}
private protocol Looping: AnyObject {}
private final class Loop: Looping, @unchecked Sendable {
    init() throws { _ = try DependencyGraph.inject() as any Looping }
}

@Suite(.isolatedDependencyGraph)
struct InjectionShapeTests {
    @Test func aSingletonInjectedByItsProtocolIsTheInstanceInjectedByItsType() throws {
        let serial = Counter()
        try inBothPaths({
            DependencyContainer { Dependency { ServiceImpl(serial.increment()) }.conforms(to: Service.self).scope(.singleton) }
        }) { path throws in
            let byProtocol: any Service = try DependencyGraph.inject()
            let again: any Service = try DependencyGraph.inject()
            let byType: ServiceImpl = try DependencyGraph.inject()
            #expect(byProtocol === again, "\(path)")
            #expect(byProtocol === byType, "\(path)")
            #expect(try DependencyGraph.inject() as (any Service)? === byType, "\(path)")
        }
        #expect(serial.value == 2, "one instance per graph")
    }

    @Test func aSecondProtocolOfASingletonAnswersWithTheSameInstance() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { ServiceImpl(1) }.conforms(to: Service.self).conforms(to: Auditing.self).scope(.singleton)
            }
        }) { path throws in
            let auditing: any Auditing = try DependencyGraph.inject()
            let service: any Service = try DependencyGraph.inject()
            #expect(auditing === service, "\(path)")
        }
    }

    @Test func aTransientInjectedByItsProtocolIsNewEachTime() throws {
        let serial = Counter()
        try inBothPaths({
            DependencyContainer { Dependency { ServiceImpl(serial.increment()) }.conforms(to: Service.self).scope(.instance) }
        }) { path throws in
            let first: any Service = try DependencyGraph.inject()
            let second: any Service = try DependencyGraph.inject()
            #expect(first !== second, "\(path)")
            #expect(second.id == first.id + 1, "\(path)")
        }
    }

    @Test func valuesAnswerByTheirTypeAndByTheirProtocol() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Value(tag: 7) }.conforms(to: Valued.self)
                Dependency { 42 }.scope(.singleton)
                Dependency { "named" }.named("text")
            }
        }) { path throws in
            #expect(try DependencyGraph.inject() as Value == Value(tag: 7), "\(path)")
            #expect(try (DependencyGraph.inject() as any Valued).tag == 7, "\(path)")
            #expect(try (DependencyGraph.inject() as (any Valued)?)?.tag == 7, "\(path)")
            #expect(try DependencyGraph.inject() as Int == 42, "\(path)")
            #expect(try DependencyGraph.inject() as Int? == 42, "\(path)")
            #expect(try DependencyGraph.inject(byName: "text") as String == "named", "\(path)")
        }
    }

    @Test func aSubclassAnswersForItsSuperclass() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Derived() }.inherits(from: Base.self).scope(.singleton)
            }
        }) { path throws in
            let base: Base = try DependencyGraph.inject()
            #expect(try DependencyGraph.inject() as Derived === base, "\(path)")
            #expect(try DependencyGraph.inject() as Base? === base, "\(path)")
        }
    }

    @Test func anUnrelatedProtocolIsTheSameErrorOnBothPaths() throws {
        var messages: [String] = []
        for scope in [DependencyScope.singleton, .instance] {
            inBothPaths({ DependencyContainer { Dependency { ServiceImpl(1) }.conforms(to: Unrelated.self).scope(scope) } }) { _ in
                do {
                    _ = try DependencyGraph.inject() as any Unrelated
                    Issue.record("an instance that does not conform was returned")
                } catch let error as InjectionError {
                    messages.append(error.description)
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }
        #expect(messages.count == 4)
        #expect(Set(messages).count == 1, "\(messages)")
        #expect(messages.first?.contains("Unrelated") == true)
    }

    @Test func aCycleThroughAProtocolIsReportedOnBothPaths() {
        inBothPaths({ DependencyContainer { Dependency { try Loop() }.conforms(to: Looping.self).scope(.instance) } }) { path in
            #expect(throws: InjectionError.self, "\(path)") { try DependencyGraph.inject() as any Looping }
        }
    }

    @Test func aSingletonSeenThroughItsProtocolIsReleasedWithItsContainer() throws {
        let graph = DependencyGraph.Context.isolated()
        let container = DependencyContainer { Dependency { ServiceImpl(1) }.conforms(to: Service.self).scope(.singleton) }
        graph.activate(container)
        weak var released: ServiceImpl?
        try graph.run {
            let service: any Service = try DependencyGraph.inject()
            released = service as? ServiceImpl
        }
        #expect(released != nil)
        graph.deactivate(container)
        #expect(released == nil, "the view kept beside the instance goes with it")
    }

    @Test func aManagedInstanceSeenThroughItsProtocolIsRenewedOnReset() throws {
        let reset = PassthroughSubject<Void, Never>()
        let serial = Counter()
        let graph = DependencyGraph.Context.isolated()
        graph.activate(
            DependencyContainer {
                Dependency { ServiceImpl(serial.increment()) }.conforms(to: Service.self).scope(.managed(by: reset))
            })
        try graph.run {
            let first: any Service = try DependencyGraph.inject()
            reset.send()
            let second: any Service = try DependencyGraph.inject()
            #expect(first !== second)
            #expect(try DependencyGraph.inject() as ServiceImpl === second)
        }
    }

    @Test func anArrayOfAProtocolHoldsEveryMatchInOrder() throws {
        let serial = Counter()
        try inBothPaths({
            DependencyContainer {
                Dependency { ServiceImpl(100) }.conforms(to: Service.self).scope(.singleton)
                Dependency { OtherService(serial.increment()) }.conforms(to: Service.self).scope(.instance)
                Dependency { (id: Int) in ParameterizedService(id) }.conforms(to: Service.self).scope(.instance)
                Dependency { Derived() }.inherits(from: Base.self).scope(.singleton)
                Dependency { OtherDerived() }.inherits(from: Base.self).scope(.instance)
            }
        }) { path throws in
            let services: [any Service] = try DependencyGraph.inject()
            #expect(services.count == 2, "the registration taking a parameter answers injections with one only (\(path))")
            #expect(services.first?.id == 100, "\(path)")
            let again: [any Service] = try DependencyGraph.inject()
            #expect(again.first === services.first, "the singleton is kept (\(path))")
            #expect(again.last !== services.last, "the transient is new (\(path))")
            let bases: [Base] = try DependencyGraph.inject()
            #expect(bases.count == 2, "\(path)")
            let basesAgain: [Base] = try DependencyGraph.inject()
            #expect(basesAgain.first === bases.first && basesAgain.last !== bases.last, "\(path)")
            #expect(try (DependencyGraph.inject() as [any Auditing]).isEmpty, "\(path)")
        }
    }

    @Test func anArrayWithAnElementThatDoesNotConformIsTheSameErrorOnBothPaths() {
        var messages: [String] = []
        inBothPaths({
            DependencyContainer {
                Dependency { Value(tag: 1) }.conforms(to: Unrelated.self).scope(.singleton)
                Dependency { ServiceImpl(1) }.conforms(to: Unrelated.self).scope(.singleton)
            }
        }) { _ in
            do {
                _ = try DependencyGraph.inject() as [any Unrelated]
                Issue.record("an instance that does not conform was returned")
            } catch {
                messages.append(String(describing: error))
            }
        }
        #expect(messages.count == 2)
        #expect(Set(messages).count == 1, "\(messages)")
    }

    @Test func registrationsThatDifferByParametersAreChosenByTheInjection() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { ServiceImpl(0) }.scope(.singleton)
                Dependency { (id: Int) in ServiceImpl(id) }.scope(.instance)
            }
        }) { path throws in
            let plain: ServiceImpl = try DependencyGraph.inject()
            #expect(plain.id == 0, "\(path)")
            #expect(try DependencyGraph.inject() as ServiceImpl === plain, "\(path)")
            #expect(try DependencyGraph.inject(byType: ServiceImpl.self, parameters: 5).id == 5, "\(path)")
            #expect(throws: InjectionError.self, "\(path)") {
                try DependencyGraph.inject(byType: ServiceImpl.self, parameters: "text") as ServiceImpl
            }
        }
    }
}
