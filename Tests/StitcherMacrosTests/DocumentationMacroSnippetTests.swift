import StitcherMacros
import StitcherTesting
import Testing

// The code of the DocC catalogs' Macros article (`Sources/Stitcher/Stitcher.docc/Macros.md`) and
// StitcherMacros landing page (`Sources/StitcherMacros/StitcherMacros.docc`),
// run with assertions (Scripts/check-snippets.sh compiles the Markdown itself as written).

final class ReportFormatter: Sendable {
    init() {}
}

@Registerable
final class ReportService: Sendable {
    let formatter: ReportFormatter

    @InjectedParameters
    init(formatter: ReportFormatter) {
        self.formatter = formatter
    }
}

@Suite(.isolatedDependencyGraph)
struct DocumentationMacroSnippetTests {
    @Test func macros() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { ReportFormatter() }
                ReportService.dependencyRegistration
            })
        let service: ReportService = try DependencyGraph.inject()  // made with ReportService()
        #expect(service.formatter === (try DependencyGraph.inject() as ReportFormatter))  // .shared, held by the service
        try DependencyGraph.verify()
    }
}
