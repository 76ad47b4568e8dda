import Foundation
import Stitcher
import StitcherTesting
import Testing

// The code of the catalog's articles on errors, graphs you hold and observing
// (`Sources/Stitcher/Stitcher.docc/ReadingErrors.md`, `HeldGraphs.md`, `ObservingTheGraph.md`), run
// with assertions (Scripts/check-snippets.sh compiles the Markdown itself as written). (`ActorIsolation.md`
// quotes `Examples/MainActorApp`, which CI builds and tests.)

// MARK: ReadingErrors.md

private protocol PaymentGateway: Sendable {
    func charge(cents: Int) throws
}
private final class ReportArchive: Sendable {}
private struct DiskFull: Error {}

// MARK: HeldGraphs.md

private struct TenantConfiguration: Sendable { let name: String }
private final class ReportStore: Sendable {
    let configuration: TenantConfiguration
    init(configuration: TenantConfiguration) { self.configuration = configuration }
}

private final class Tenant: Sendable {
    let dependencies = DependencyGraph.Context.isolated()

    init(configuration: TenantConfiguration) {
        dependencies.activate(
            DependencyContainer {
                Dependency { configuration }
                Dependency(autowiring: ReportStore.init).scope(.singleton)
            })
    }
}

private final class ReportsView {
    @Injected var store: ReportStore
    init(tenant: Tenant) { _store = Injected(in: tenant.dependencies) }
}

// MARK: ObservingTheGraph.md

private final class StripeGateway: PaymentGateway {
    func charge(cents: Int) throws {}
}
private final class CheckoutService: Sendable {
    let gateway: any PaymentGateway
    init(gateway: any PaymentGateway) { self.gateway = gateway }
}

@Suite(.isolatedDependencyGraph)
struct DocumentationArticleSnippetTests {
    @Test func errorsArticleCatchesAMissingDependency() throws {
        var printed: String?
        do {
            let gateway: any PaymentGateway = try DependencyGraph.inject()
            try gateway.charge(cents: 500)
        } catch InjectionError.missingDependency(let context) {
            printed = "Nothing provides \(context); register it, or inject something that exists."
        }
        #expect(printed?.contains("PaymentGateway") == true)
    }

    @Test func errorsArticleUnwrapsAFactorysError() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> ReportArchive in throw DiskFull() }
            })
        var caught: DiskFull?
        do {
            _ = try DependencyGraph.inject() as ReportArchive
        } catch InjectionError.unknown(let error as DiskFull) {
            caught = error
        }
        #expect(caught != nil)
    }

    @Test func heldGraphsArticleKeepsATenantsGraph() throws {
        let tenant = Tenant(configuration: TenantConfiguration(name: "acme"))
        let store: ReportStore = try tenant.dependencies.inject()
        #expect(store.configuration.name == "acme")
        #expect(ReportsView(tenant: tenant).store === store)
        #expect(throws: InjectionError.self) { try DependencyGraph.inject() as ReportStore }
    }

    @Test func observingArticleRecordsTheEdgesUsed() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { StripeGateway() }.conforms(to: (any PaymentGateway).self).scope(.singleton)
                Dependency(autowiring: CheckoutService.init)
            })
        let recorder = DependencyEdgeRecorder()
        DependencyGraph.observer = recorder
        _ = try DependencyGraph.inject() as CheckoutService
        let edges = recorder.edges.map { "\($0)" }
        #expect(edges.contains { $0 == "Type[CheckoutService] -> Type[StripeGateway]" }, "\(edges)")
    }
}
