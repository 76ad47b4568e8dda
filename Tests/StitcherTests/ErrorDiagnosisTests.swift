import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Report: Sendable {}
private final class Printer: Sendable {}
private final class Summary: Sendable { init(_ report: Report) {} }
private protocol Channel {}
private struct Mail: Channel {}
private struct Chat: Channel {}
private struct Pager: Channel {}

/// An error carries what its own failure found, captured when it was thrown: not what a later
/// failure on the same request, in this graph or another, found.
@Suite(.isolatedDependencyGraph)
struct ErrorDiagnosisTests {
    /// Fails `let _: Report = try inject()` in a new isolated graph holding `registrations`.
    private func failure(_ registrations: DependencyContainer) async throws -> InjectionError {
        try await DependencyGraph.withIsolatedGraph {
            await DependencyGraph.activate(registrations)
            return try #require(throws: InjectionError.self) { let _: Report = try DependencyGraph.inject() }
        }
    }

    @Test func twoGraphsFailingOnTheSameRequestNameTheirOwnCandidates() async throws {
        async let first = failure(DependencyContainer { Dependency { Report() }.named("monthly-report") })
        async let second = failure(DependencyContainer { Dependency { Report() }.named("weekly-report") })
        let (monthly, weekly) = try await (first, second)
        #expect(monthly == weekly, "equal as 1.x errors: the same case and request")
        let monthlyReason = try #require(monthly.failureReason)
        let weeklyReason = try #require(weekly.failureReason)
        #expect(monthlyReason.contains("Name[monthly-report]") && !monthlyReason.contains("weekly"), "\(monthlyReason)")
        #expect(weeklyReason.contains("Name[weekly-report]") && !weeklyReason.contains("monthly"), "\(weeklyReason)")
    }

    @Test func anErrorSaysWhatItSaidAfterAThousandOtherFailures() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Mail() }.conforms(to: Channel.self)
                Dependency { Chat() }.conforms(to: Channel.self)
                Dependency { Summary(try DependencyGraph.inject()) }
            })
        let ambiguous = try #require(throws: InjectionError.self) { let _: Channel = try DependencyGraph.inject() }
        let nested = try #require(throws: InjectionError.self) { _ = try DependencyGraph.inject(byType: Summary.self) as Summary }
        let (ambiguousReason, nestedReason) = (ambiguous.failureReason, nested.failureReason)
        #expect(ambiguousReason?.contains("Type[Chat]") == true)
        #expect(nested.neededBy == [.type("Summary")])

        // The same requests fail again with other candidates and at the top level, and a
        // thousand other requests fail in between.
        DependencyGraph.activate(DependencyContainer { Dependency { Pager() }.conforms(to: Channel.self) })
        var failures = 0
        for index in 0..<1_000 {
            do { let _: Printer = try DependencyGraph.inject(byName: "printer-\(index)") } catch is InjectionError { failures += 1 }
        }
        #expect(failures == 1_000)
        let laterAmbiguous = try #require(throws: InjectionError.self) { let _: Channel = try DependencyGraph.inject() }
        let laterTopLevel = try #require(throws: InjectionError.self) { _ = try DependencyGraph.inject(byType: Report.self) as Report }
        #expect(laterAmbiguous.failureReason?.contains("Type[Pager]") == true)
        #expect(laterTopLevel.neededBy == nil)

        #expect(ambiguous.failureReason == ambiguousReason)
        #expect(ambiguous.failureReason?.contains("Type[Pager]") == false)
        #expect(nested.failureReason == nestedReason)
        #expect(nested.neededBy == [.type("Summary")])
    }

    @Test func aMissNamesTheRegistrationsOfTheGraphItFailedIn() async throws {
        let error = try await failure(DependencyContainer { Dependency { Report() }.named("report") })
        // Read after that graph has ended and while this graph registers something else.
        await DependencyGraph.activate(DependencyContainer { Dependency { Report() }.named("reporter") })
        let reason = try #require(error.failureReason)
        #expect(reason.contains("Name[report]") && !reason.contains("Name[reporter]"), "\(reason)")
    }

    @Test func parameterErrorsListTheirOwnRegistrations() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { (id: Int) in Printer() } })
        let first = try #require(throws: InjectionError.self) {
            _ = try DependencyGraph.inject(byType: Printer.self, parameters: "A4") as Printer
        }
        DependencyGraph.deactivateAll()
        DependencyGraph.activate(DependencyContainer { Dependency { (copies: Double) in Printer() } })
        let second = try #require(throws: InjectionError.self) {
            _ = try DependencyGraph.inject(byType: Printer.self, parameters: "A4") as Printer
        }
        #expect(first.recoverySuggestion?.contains("(Int) -> Printer") == true)
        #expect(second.recoverySuggestion?.contains("(Double) -> Printer") == true)
        #expect(first.recoverySuggestion?.contains("Double") == false)
    }

    @Test func contextsCompareByRequestAndSwitchByKind() throws {
        let error = try #require(throws: InjectionError.self) { _ = try DependencyGraph.inject(byType: Report.self) as Report }
        guard case .missingDependency(let context) = error else {
            Issue.record("expected a missing dependency, got \(error)")
            return
        }
        #expect(context == .type("Report"))
        #expect(Set([context, .type("Report")]).count == 1, "hashes as the request it names")
        switch context.kind {
        case .type(let typeName): #expect(typeName == "Report")
        case .name, .value: Issue.record("expected a type context")
        }
    }
}
