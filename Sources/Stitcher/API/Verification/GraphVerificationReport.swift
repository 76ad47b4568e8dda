/// What ``DependencyGraph/verify(_:)`` found: every problem in the graph, and notes.
///
/// `verify()` throws the report when it holds a problem; ``DependencyGraph/verificationReport(_:)``
/// returns it either way. Its description lists every problem with what was asked for,
/// where it was declared and how to fix it.
///
/// ```swift
/// do {
///     try DependencyGraph.verify()
/// } catch let report as GraphVerificationReport {
///     print(report)   // "Verifying the dependency graph (12 registrations) found 2 problems: …"
/// }
/// ```
public struct GraphVerificationReport: Error, Sendable, CustomStringConvertible {
    /// How many active registrations were checked.
    public let registrationCount: Int
    /// The problems found, in the order of the registrations they were found in.
    public let problems: [GraphProblem]
    /// What is worth knowing but not wrong (a singleton holding a `.shared` dependency).
    public let notes: [GraphProblem]
    /// How many factories were built, with ``DependencyGraph/VerificationOptions/instantiatesFactories``.
    public let instantiatedCount: Int
    /// The registrations not built although asked to instantiate factories: asynchronous ones
    /// (use `verifyAsync`), main-actor ones off the main actor, and those taking parameters.
    public let notInstantiated: [InjectionError.DependencyContext]

    /// Whether the graph has no problem (notes aside).
    public var isValid: Bool { problems.isEmpty }

    init(
        registrationCount: Int, findings: [GraphProblem], instantiatedCount: Int = 0,
        notInstantiated: [InjectionError.DependencyContext] = []
    ) {
        self.registrationCount = registrationCount
        problems = findings.filter { !$0.isNote }
        notes = findings.filter(\.isNote)
        self.instantiatedCount = instantiatedCount
        self.notInstantiated = notInstantiated
    }

    public var description: String {
        let checked = "Verifying the dependency graph (\(registrationCount) registration\(registrationCount == 1 ? "" : "s"))"
        var lines = [
            problems.isEmpty
                ? "\(checked) found no problem."
                : "\(checked) found \(problems.count) problem\(problems.count == 1 ? "" : "s"):"
        ]
        for (number, problem) in problems.enumerated() { lines.append("\(number + 1). \(problem)") }
        if !notes.isEmpty {
            lines.append("Notes:")
            for note in notes { lines.append("- \(note)") }
        }
        return lines.joined(separator: "\n")
    }
}
