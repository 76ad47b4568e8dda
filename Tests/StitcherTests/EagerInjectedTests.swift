import Stitcher
import StitcherTesting
import Testing

private final class Gateway: Sendable {
    let label: String
    init(label: String) { self.label = label }
}
private enum Names: String { case audit }
private enum Region: Hashable { case europe }

@Suite(.isolatedDependencyGraph)
struct EagerInjectedTests {
    @Test func resolvesWhenTheOwnerIsCreatedAndNotAgain() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Gateway in
                    builds.increment()
                    return Gateway(label: "type")
                }.scope(.instance)
            })
        final class Owner { @EagerInjected var gateway: Gateway }
        let owner = Owner()
        #expect(builds.value == 1, "resolved at initialization, before any read")
        #expect(owner.gateway === owner.gateway)
        #expect(builds.value == 1, "reads do not resolve again")
    }

    @Test func everyLocatorAndParameters() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (label: String) in Gateway(label: label) }
                Dependency { Gateway(label: "audit") }.named("audit")
                Dependency { (suffix: Int) in Gateway(label: "audit-\(suffix)") }.named("audit")
                Dependency { Gateway(label: "europe") }.associated(with: Region.europe)
                Dependency { ["a", "b"] }
            })
        struct Owner {
            @EagerInjected("given") var byType: Gateway
            @EagerInjected(name: "audit") var byName: Gateway
            @EagerInjected(name: Names.audit, 7) var byRawName: Gateway
            @EagerInjected(value: Region.europe) var byValue: Gateway
            @EagerInjected var missing: Int?
            @EagerInjected var strings: [String]
        }
        let owner = Owner()
        #expect(owner.byType.label == "given")
        #expect(owner.byName.label == "audit")
        #expect(owner.byRawName.label == "audit-7")
        #expect(owner.byValue.label == "europe")
        #expect(owner.missing == nil)
        #expect(owner.strings == ["a", "b"])
    }

    @Test func assignmentReplacesTheInjectedValue() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Gateway(label: "real") } })
        struct Owner { @EagerInjected var gateway: Gateway }
        var owner = Owner()
        owner.gateway = Gateway(label: "fake")
        #expect(owner.gateway.label == "fake")
        #expect(try DependencyGraph.inject(byType: Gateway.self).label == "real", "the graph is untouched")
    }
}
