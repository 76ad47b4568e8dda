import Stitcher
import Testing

/// Verifies a dependency graph and records a test issue for each problem found.
///
/// Given containers, activates them in a new, empty graph of their own (the process-wide
/// graph and other tests are untouched) and verifies it; given none, verifies the current
/// graph. Each problem becomes its own issue, at the caller's source location, describing
/// what was asked for, where it was declared and how to fix it; notes are not issues.
///
/// ```swift
/// @Test func theAppGraphIsValid() {
///     expectValidDependencyGraph(AppContainer.live, AppContainer.networking)
/// }
/// ```
///
/// - Returns: The verification report, for further checks.
@discardableResult
public func expectValidDependencyGraph(
    _ containers: DependencyContainer...,
    options: DependencyGraph.VerificationOptions = .declarationsOnly,
    sourceLocation: SourceLocation = #_sourceLocation
) -> GraphVerificationReport {
    let graph = containers.isEmpty ? DependencyGraph.currentContext : DependencyGraph.Context.isolated()
    for container in containers { graph.activate(container) }
    let report = graph.verificationReport(options)
    record(report, sourceLocation)
    return report
}

/// ``expectValidDependencyGraph(_:options:sourceLocation:)``, awaiting asynchronous eager
/// dependencies at activation and, with `.instantiating`,
/// building asynchronous and main-actor factories.
///
/// ```swift
/// @Test func everyFactoryOfTheServerSucceeds() async {
///     await expectValidDependencyGraphAsync(ServerContainer.live, options: .instantiating)
/// }
/// ```
@discardableResult
public func expectValidDependencyGraphAsync(
    _ containers: DependencyContainer...,
    options: DependencyGraph.VerificationOptions = .declarationsOnly,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> GraphVerificationReport {
    let graph = containers.isEmpty ? DependencyGraph.currentContext : DependencyGraph.Context.isolated()
    for container in containers { await graph.activate(container) }
    let report = await graph.run { await DependencyGraph.verificationReportAsync(options) }
    record(report, sourceLocation)
    return report
}

private func record(_ report: GraphVerificationReport, _ sourceLocation: SourceLocation) {
    for problem in report.problems {
        Issue.record("Dependency graph: \(problem)", sourceLocation: sourceLocation)
    }
}
