import Stitcher
import StitcherTesting
import Testing

private final class Service: Sendable {
    let label: String
    init(_ label: String = "service") { self.label = label }
}
private final class Missing: Sendable {}
private final class NeedsMissing: Sendable { init(_ missing: Missing) {} }
private final class LoopA: Sendable { init(_ b: LoopB) {} }
private final class LoopB: Sendable { init(_ a: LoopA) {} }
private final class Broken: Sendable {}
private final class Slow: Sendable {}
private protocol Tracking {}
private struct Clicks: Tracking {}
private struct Views: Tracking {}
private enum Slot: Hashable { case primary, secondary }
private struct Failure: Error {}

/// An optional result of a request for a non-optional type gives nil when nothing is
/// registered, as Stitcher 1.x's result-type overloads do, and throws for everything else.
@Suite(.isolatedDependencyGraph)
struct OptionalResultTests {
    @Test func anOptionalResultOfATypeRequestIsNilWhenNothingIsRegistered() throws {
        let byType: Service? = try DependencyGraph.inject(byType: Service.self)
        let withParameters: Service? = try DependencyGraph.inject(byType: Service.self, parameters: "x", 1)
        let unlabelled: Service? = try DependencyGraph.inject(byType: Service.self, "x")
        let inferred: Service? = try DependencyGraph.inject()
        #expect(byType == nil && withParameters == nil && unlabelled == nil && inferred == nil)

        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Service() }
                Dependency { (label: String) in Service(label) }
            })
        let found: Service? = try DependencyGraph.inject(byType: Service.self)
        let foundWithParameter: Service? = try DependencyGraph.inject(byType: Service.self, parameters: "p")
        let foundUnlabelled: Service? = try DependencyGraph.inject(byType: Service.self, "u")
        #expect(found?.label == "service" && foundWithParameter?.label == "p" && foundUnlabelled?.label == "u")
    }

    @Test func anOptionalCollectionIsNilWhenNothingMatches() throws {
        let none: [Tracking]? = try DependencyGraph.inject(byType: [Tracking].self)
        let noneWithParameter: [Tracking]? = try DependencyGraph.inject(byType: [Tracking].self, parameters: 1)
        #expect(none == nil && noneWithParameter == nil)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clicks() }.conforms(to: Tracking.self)
                Dependency { (_: Int) in Views() }.conforms(to: Tracking.self)
            })
        let all: [Tracking]? = try DependencyGraph.inject(byType: [Tracking].self)
        let withParameter: [Tracking]? = try DependencyGraph.inject(byType: [Tracking].self, parameters: 1)
        #expect(all?.count == 1 && all?.first is Clicks)
        #expect(withParameter?.count == 1 && withParameter?.first is Views)
    }

    @Test func byNameAndByValueGiveNilTheSameWay() throws {
        let named: Service? = try DependencyGraph.inject(byName: "service")
        let namedWithParameter: Service? = try DependencyGraph.inject(byName: "service", parameters: 1)
        let valued: Service? = try DependencyGraph.inject(byValue: Slot.primary)
        let namedArray: [Service]? = try DependencyGraph.inject(byName: "service")
        #expect(named == nil && namedWithParameter == nil && valued == nil && namedArray == nil)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Service("named") }.named("service")
                Dependency { Service("valued") }.associated(with: Slot.primary)
            })
        let foundByName: Service? = try DependencyGraph.inject(byName: "service")
        let foundByValue: Service? = try DependencyGraph.inject(byValue: Slot.primary)
        let stillMissing: Service? = try DependencyGraph.inject(byValue: Slot.secondary)
        #expect(foundByName?.label == "named" && foundByValue?.label == "valued" && stillMissing == nil)
    }

    @Test func everyOtherFailureStillThrows() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clicks() }.conforms(to: Tracking.self)
                Dependency { Views() }.conforms(to: Tracking.self)
                Dependency { NeedsMissing(try DependencyGraph.inject()) }
                Dependency { LoopA(try DependencyGraph.inject()) }
                Dependency { LoopB(try DependencyGraph.inject()) }
                Dependency { () throws -> Broken in throw Failure() }
                Dependency { (id: Int) in Service("\(id)") }
                Dependency { Service("named") }.named("wrong-type")
            })
        #expect(throws: InjectionError.multipleDependencies(.type("Tracking"))) {
            let _: Tracking? = try DependencyGraph.inject(byType: Tracking.self)
        }
        #expect(throws: InjectionError.missingDependency(.type("Missing")), "a missing dependency of a registered one") {
            let _: NeedsMissing? = try DependencyGraph.inject(byType: NeedsMissing.self)
        }
        #expect(throws: InjectionError.self, "a cycle") {
            let _: LoopA? = try DependencyGraph.inject(byType: LoopA.self)
        }
        #expect(throws: InjectionError.unknown(Failure()), "a throwing factory") {
            let _: Broken? = try DependencyGraph.inject(byType: Broken.self)
        }
        #expect(throws: InjectionError.self, "parameters of other types") {
            let _: Service? = try DependencyGraph.inject(byType: Service.self, parameters: "text")
        }
        #expect(throws: InjectionError.mismatchedDependencyType("Service", expected: "Broken"), "a name of another type") {
            let _: Broken? = try DependencyGraph.inject(byName: "wrong-type")
        }
    }

    @Test func theResultTypeChoosesTheOverloadAsIn1x() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Service() }
                Dependency { Clicks() }.conforms(to: Tracking.self)
            })
        // Without a result type, a request for a type is the optional form (1.x's rule) ...
        let unannotated = try DependencyGraph.inject(byType: Service.self)
        #expect(type(of: unannotated) == Service?.self)
        // ... and a request for a collection is the collection itself.
        let collection = try DependencyGraph.inject(byType: [Tracking].self)
        #expect(type(of: collection) == [Tracking].self)
        #expect(collection.count == 1)
        let set = try DependencyGraph.inject(byType: Set<Slot>.self)
        #expect(set.isEmpty)
        // A non-optional result still throws when nothing is registered.
        #expect(throws: InjectionError.missingDependency(.type("Missing"))) {
            let _: Missing = try DependencyGraph.inject(byType: Missing.self)
        }
    }

    @Test func asyncInjectionGivesNilTheSameWay() async throws {
        let missing: Slow? = try await DependencyGraph.injectAsync(byType: Slow.self)
        #expect(missing == nil)
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Slow in
                    await Task.yield()
                    return Slow()
                }
                Dependency { () async throws -> Broken in throw Failure() }
            })
        let found: Slow? = try await DependencyGraph.injectAsync(byType: Slow.self)
        #expect(found != nil, "an asynchronous factory runs asynchronously for an optional result")
        await #expect(throws: InjectionError.unknown(Failure())) {
            let _: Broken? = try await DependencyGraph.injectAsync(byType: Broken.self)
        }
    }
}
