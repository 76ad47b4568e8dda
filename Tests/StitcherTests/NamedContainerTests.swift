import StitcherTesting
import Testing

@testable import Stitcher

private final class Gateway: Sendable {}
private final class Ledger: Sendable { init(gateway: Gateway, clock: Clock) {} }
private final class Clock: Sendable {}
private protocol Store: Sendable {}
private final class DiskStore: Store {}
private final class MemoryStore: Store {}

/// `DependencyContainer(name:)`: the name (or the file and line that made the container)
/// shows in reports, pictures, active registrations and error messages.
@Suite(.isolatedDependencyGraph)
struct NamedContainerTests {
    @Test func aContainerIsNamedAsGivenOrByWhereItWasMade() {
        let line = #line + 1
        let unnamed = DependencyContainer { Dependency { Gateway() } }
        #expect(DependencyContainer(name: "Payments") {}.name == "Payments")
        #expect(unnamed.name == "StitcherTests/NamedContainerTests.swift:\(line)")
        let merged = DependencyContainer(merging: [DependencyContainer(name: "A") {}, DependencyContainer(name: "B") {}])
        #expect(merged.name == "A + B")
    }

    @Test func activeRegistrationsNameTheirContainer() {
        DependencyGraph.activate(DependencyContainer(name: "Payments") { Dependency { Gateway() } })
        DependencyGraph.activate(DependencyContainer(name: "Time") { Dependency { Clock() } })
        let containers = DependencyGraph.activeRegistrations.map { "\($0.typeName) in \($0.container)" }
        #expect(containers == ["Gateway in Payments", "Clock in Time"])
    }

    @Test func reportsAndPicturesNameTheContainer() {
        DependencyGraph.activate(DependencyContainer(name: "Payments") { Dependency(autowiring: Ledger.init) })
        DependencyGraph.activate(DependencyContainer(name: "Gateways") { Dependency { Gateway() } })
        let problem = DependencyGraph.verificationReport().problems.first { $0.kind == .missingDependency }
        #expect(problem?.container == "Payments")
        #expect(problem?.declaration.hasSuffix("(in Payments)") == true)
        let dot = DependencyGraph.export(.dot)
        #expect(dot.contains("subgraph cluster_1 {\n    label=\"Payments\""))
        #expect(dot.contains("subgraph cluster_2 {\n    label=\"Gateways\""))
        #expect(DependencyGraph.export(.mermaid).contains("subgraph c2[\"Gateways\"]"))
    }

    /// A dependency scope's own container shows beside the graph's.
    @Test func aScopesContainerIsNamedBesideTheGraphs() throws {
        DependencyGraph.activate(DependencyContainer(name: "App") { Dependency { Gateway() } })
        let names = try DependencyGraph.withScope(DependencyContainer(name: "Request") { Dependency { Clock() } }) {
            DependencyGraph.activeRegistrations.map(\.container)
        }
        #expect(names == ["App", "Request"])
    }

    @Test func errorsNameTheContainersOfWhatTheyList() {
        DependencyGraph.activate(DependencyContainer(name: "Disk") { Dependency { DiskStore() }.conforms(to: Store.self) })
        DependencyGraph.activate(DependencyContainer(name: "Memory") { Dependency { MemoryStore() }.conforms(to: Store.self) })
        DependencyGraph.activate(DependencyContainer(name: "Named") { Dependency(named: "clock") { Clock() } })
        #expect {
            _ = try DependencyGraph.inject() as any Store
        } throws: { error in
            let reason = (error as? InjectionError)?.failureReason ?? ""
            return reason.contains("(in Disk)") && reason.contains("(in Memory)")
        }
        #expect {
            _ = try DependencyGraph.inject() as Clock
        } throws: { error in
            ((error as? InjectionError)?.failureReason ?? "").contains("(in Named)")
        }
    }
}
