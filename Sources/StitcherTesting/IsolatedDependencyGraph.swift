import Stitcher
import Testing

/// A Swift Testing trait that runs each test against its own, empty dependency graph.
///
/// Containers the test activates are visible only to the test and its child tasks, and are
/// deactivated when it ends, so tests that register different dependencies can run in
/// parallel. On a suite, it applies to every test in the suite.
///
/// ```swift
/// @Test(.isolatedDependencyGraph)
/// func showsCachedProfile() throws {
///     DependencyGraph.activate(DependencyContainer {
///         Dependency { FakeProfileStore() }.conforms(to: ProfileStore.self)
///     })
///     let store: ProfileStore = try DependencyGraph.inject()
///     #expect(store.cachedProfile != nil)
/// }
/// ```
public struct IsolatedDependencyGraphTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applied to a suite, the trait gives each of its tests a graph of its own.
    public var isRecursive: Bool { true }

    /// The trait; write `.isolatedDependencyGraph` instead.
    public init() {}

    /// Runs `function` with `DependencyGraph` working on a new, empty graph.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await DependencyGraph.withIsolatedGraph {
            try await function()
        }
    }
}

extension Trait where Self == IsolatedDependencyGraphTrait {
    /// Runs the test (or each test of the suite) against its own, empty dependency graph.
    public static var isolatedDependencyGraph: Self { IsolatedDependencyGraphTrait() }
}
