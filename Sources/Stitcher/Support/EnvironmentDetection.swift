import Foundation

/// How `DependencyEnvironment.detected` is found: from the process's environment variables,
/// launch arguments and executable, which say the same on Linux and Apple platforms.
enum EnvironmentDetection {
    static func detect(
        variables: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = ProcessInfo.processInfo.arguments
    ) -> DependencyEnvironment {
        DependencyEnvironment(
            isRunningTests: runsTests(variables: variables, arguments: arguments),
            isRunningForPreviews: variables["XCODE_RUNNING_FOR_PREVIEWS"] == "1",
            isDebugBuild: _isDebugAssertConfiguration(),
            arguments: arguments, variables: variables)
    }

    /// Whether a test runner started the process:
    /// - Xcode's XCTest and Swift Testing runners set `XCTestConfigurationFilePath`,
    ///   `XCTestBundlePath` or `XCTestSessionIdentifier`;
    /// - `swift test` runs `<Package>PackageTests.xctest` (Linux) or `xctest` /
    ///   `swiftpm-testing-helper` with the test bundle (macOS), with
    ///   `--testing-library` for Swift Testing.
    static func runsTests(variables: [String: String], arguments: [String]) -> Bool {
        let markers = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        if markers.contains(where: { variables[$0] != nil }) { return true }
        if arguments.contains("--testing-library") { return true }
        guard let executable = arguments.first.map({ URL(fileURLWithPath: $0).lastPathComponent }) else { return false }
        return executable.hasSuffix(".xctest") || executable == "xctest" || executable == "swiftpm-testing-helper"
            || arguments.contains { $0.hasSuffix(".xctest") }
    }
}
