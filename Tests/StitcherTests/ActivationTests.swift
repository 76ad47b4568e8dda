import Stitcher
import StitcherTesting
import Testing

private protocol Greeter: Sendable { var greeting: String { get } }
private struct EnglishGreeter: Greeter { var greeting: String { "hello" } }
private struct FrenchGreeter: Greeter { var greeting: String { "bonjour" } }
private final class Widget: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class EagerProbe: @unchecked Sendable {
    static let built = Counter()
    init() { Self.built.increment() }
}

@Suite(.isolatedDependencyGraph)
struct ActivationTests {
    @Test func dependenciesAreInjectableAsSoonAsActivateReturns() throws {
        let container = DependencyContainer { Dependency { Widget("ready") } }
        #expect(throws: InjectionError.self) { try DependencyGraph.inject(byType: Widget.self) as Widget }
        DependencyGraph.activate(container)
        #expect(DependencyGraph.isActive(container))
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "ready")
        DependencyGraph.deactivate(container)
        #expect(!DependencyGraph.isActive(container))
        #expect(throws: InjectionError.self) { try DependencyGraph.inject(byType: Widget.self) as Widget }
    }

    @Test func completionAndAsyncActivation() async throws {
        let first = DependencyContainer { Dependency { Widget("first") }.named("first") }
        let second = DependencyContainer { Dependency { Widget("second") }.named("second") }
        let called = Counter()
        DependencyGraph.activate(first) { called.increment() }
        #expect(called.value == 1)
        await DependencyGraph.activate(second)
        let widgets: [Widget] = try [DependencyGraph.inject(byName: "first"), DependencyGraph.inject(byName: "second")]
        #expect(widgets.map(\.label) == ["first", "second"])
        DependencyGraph.deactivateAll()
        let missing: Widget? = try DependencyGraph.inject(byName: "first")
        #expect(missing == nil)
    }

    @Test func eagerDependenciesExistWhenActivateReturns() throws {
        let before = EagerProbe.built.value
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { EagerProbe() }.scope(.singleton).eagerness(.eager)
            })
        #expect(EagerProbe.built.value == before + 1)
        let _: EagerProbe = try DependencyGraph.inject()
        #expect(EagerProbe.built.value == before + 1)
    }

    @Test func laterLineInAContainerWins() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Widget("first") }
                Dependency { Widget("second") }
                Dependency { Widget("named-1") }.named("n")
                Dependency { Widget("named-2") }.named("n")
            })
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "second")
        #expect(try (DependencyGraph.inject(byName: "n") as Widget).label == "named-2")
        let all: [Widget] = try DependencyGraph.inject()
        #expect(all.map(\.label) == ["second"])
    }

    @Test func laterActivatedContainerOverridesAndDeactivationRestores() throws {
        let app = DependencyContainer { Dependency { Widget("app") } }
        let feature = DependencyContainer { Dependency { Widget("feature") } }
        DependencyGraph.activate(app)
        DependencyGraph.activate(feature)
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "feature")
        DependencyGraph.deactivate(feature)
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "app")
        DependencyGraph.activate(feature)
        DependencyGraph.activate(app)
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "app", "re-activation moves a container to the top")
    }

    @Test func sameTypeWithOtherParametersIsAnotherRegistration() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Widget("plain") }
                Dependency { (label: String) in Widget(label) }
            })
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "plain")
        #expect(try DependencyGraph.inject(byType: Widget.self, "custom").label == "custom")
    }

    @Test func registrationsSharingOnlyAnAliasAreDistinct() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { EnglishGreeter() }.conforms(to: Greeter.self)
                Dependency { FrenchGreeter() }.conforms(to: Greeter.self)
            })
        let all: [Greeter] = try DependencyGraph.inject()
        #expect(all.map(\.greeting) == ["hello", "bonjour"])
        let set: Set<String> = Set(all.map(\.greeting))
        #expect(set == ["hello", "bonjour"])
        #expect(throws: InjectionError.multipleDependencies(.type("Greeter"))) {
            let _: Greeter = try DependencyGraph.inject()
        }
        #expect(try DependencyGraph.inject(byType: FrenchGreeter.self).greeting == "bonjour")
    }

    @Test func aliasesAcrossContainersKeepActivationOrder() throws {
        let first = DependencyContainer { Dependency { FrenchGreeter() }.conforms(to: Greeter.self) }
        let second = DependencyContainer { Dependency { EnglishGreeter() }.conforms(to: Greeter.self) }
        DependencyGraph.activate(first)
        DependencyGraph.activate(second)
        let all: [Greeter] = try DependencyGraph.inject()
        #expect(all.map(\.greeting) == ["bonjour", "hello"])
    }

    @Test func deactivatingAnInactiveContainerDoesNothing() throws {
        let active = DependencyContainer { Dependency { Widget("kept") } }
        DependencyGraph.activate(active)
        DependencyGraph.deactivate(DependencyContainer { Dependency { Widget("other") } })
        #expect(try DependencyGraph.inject(byType: Widget.self).label == "kept")
    }

    @Test func containersAreEquatableByIdentity() {
        let container = DependencyContainer()
        #expect(container == container)
        #expect(container != DependencyContainer())
        #expect(container.id == container.id)
        #expect(DependencyContainer.empty != DependencyContainer.empty)
    }
}
