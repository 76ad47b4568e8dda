import StitcherTesting
import Testing

@testable import Stitcher

private protocol Analytics: Sendable {}
private final class LiveAnalytics: Analytics {}
private final class RecordingAnalytics: Analytics {}
private final class SampleData: Sendable {}
private final class VerboseLogger: Sendable {}

/// `DependencyEnvironment`: what it detects, how a test overrides it, and registrations that
/// take part only in some environments.
@Suite(.isolatedDependencyGraph)
struct DependencyEnvironmentTests {
    private static func appContainer() -> DependencyContainer {
        DependencyContainer {
            if DependencyEnvironment.isRunningTests {
                Dependency { RecordingAnalytics() as any Analytics }
            } else {
                Dependency { LiveAnalytics() as any Analytics }
            }
            Dependency { SampleData() }.when(.runningForPreviews)
            Dependency { VerboseLogger() }.when(.argument("-verbose") || .variable("VERBOSE", equals: "1"))
        }
    }

    /// This process is a test runner (`swift test`), and the detection says so.
    @Test func detectsThatTestsAreRunning() {
        #expect(DependencyEnvironment.detected.isRunningTests)
        #expect(DependencyEnvironment.isRunningTests)
        #expect(!DependencyEnvironment.detected.isRunningForPreviews)
        #expect(DependencyEnvironment.detected.arguments == CommandLine.arguments)
    }

    @Test func detectionReadsTheRunnersMarkers() {
        let app = ["/usr/bin/TodoServer", "--port", "8080"]
        #expect(!EnvironmentDetection.runsTests(variables: [:], arguments: app))
        #expect(EnvironmentDetection.runsTests(variables: ["XCTestConfigurationFilePath": "/x"], arguments: app))
        #expect(EnvironmentDetection.runsTests(variables: [:], arguments: ["/b/.build/debug/AppPackageTests.xctest"]))
        #expect(EnvironmentDetection.runsTests(variables: [:], arguments: ["/b/App", "--testing-library", "swift-testing"]))
        let preview = EnvironmentDetection.detect(variables: ["XCODE_RUNNING_FOR_PREVIEWS": "1"], arguments: app)
        #expect(preview.isRunningForPreviews && !preview.isRunningTests)
    }

    /// The builder reads the environment when the container is first activated: in tests,
    /// the recording analytics; with the environment of a production launch, the live one.
    @Test func theBuilderRegistersWhatTheEnvironmentAsksFor() throws {
        DependencyGraph.activate(Self.appContainer())
        #expect(try DependencyGraph.inject() as any Analytics is RecordingAnalytics)
        #expect((try DependencyGraph.inject() as SampleData?) == nil)
        #expect((try DependencyGraph.inject() as VerboseLogger?) == nil)

        let production = DependencyEnvironment(arguments: ["/usr/bin/App", "-verbose"])
        let (analytics, logger) = try DependencyEnvironment.withEnvironment(production) {
            try DependencyGraph.withIsolatedGraph {
                DependencyGraph.activate(Self.appContainer())
                return (try DependencyGraph.inject() as any Analytics, try DependencyGraph.inject() as VerboseLogger?)
            }
        }
        #expect(analytics is LiveAnalytics)
        #expect(logger != nil)
    }

    @Test func conditionsCombine() {
        let environment = DependencyEnvironment(
            isRunningForPreviews: true, arguments: ["/App", "-UITests"], variables: ["REGION": "eu"])
        typealias Condition = DependencyEnvironment.Condition
        let cases: [(Condition, Bool)] = [
            (.runningTests, false), (.runningForPreviews, true), (!.runningTests, true),
            (.argument("-UITests"), true), (.argument("/App"), false), (.variable("REGION"), true),
            (.variable("REGION", equals: "us"), false), (.runningTests || .variable("REGION", equals: "eu"), true),
            (.runningForPreviews && .debugBuild, false), (.custom { $0.variables.isEmpty }, false),
        ]
        for (index, (condition, expected)) in cases.enumerated() {
            #expect(DependencyEnvironment.withEnvironment(environment) { condition.holdsNow } == expected, "case \(index)")
        }
    }

    /// A child task sees its parent's override; the override ends with its operation.
    @Test func anOverrideFollowsChildTasksAndEnds() async {
        let preview = DependencyEnvironment(isRunningForPreviews: true)
        let seen = await DependencyEnvironment.withEnvironment(preview) {
            await Task { DependencyEnvironment.isRunningForPreviews }.value
        }
        #expect(seen)
        #expect(!DependencyEnvironment.isRunningForPreviews)
        #expect(DependencyEnvironment.current == .detected)
    }

    /// A group takes part or not as a whole.
    @Test func aGroupTakesPartAsAWhole() throws {
        let container = DependencyContainer {
            DependencyGroup {
                Dependency { SampleData() }
                Dependency { VerboseLogger() }
            }
            .when(.runningTests)
        }
        DependencyGraph.activate(container)
        #expect((try DependencyGraph.inject() as SampleData?) != nil)
        #expect((try DependencyGraph.inject() as VerboseLogger?) != nil)
        let other = DependencyEnvironment.withEnvironment(.init()) {
            DependencyContainer { DependencyGroup { Dependency { SampleData() } }.when(.runningTests) }.registrations().isEmpty
        }
        #expect(other)
    }
}
