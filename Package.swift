// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

/// Platforms without Apple's Combine use OpenCombine for the publisher-based API.
let nonApplePlatforms: [Platform] = [.linux, .windows, .android, .openbsd]

let package = Package(
    name: "Stitcher",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17)],
    products: [
        .library(name: "Stitcher", targets: ["Stitcher"]),
        .library(name: "StitcherTesting", targets: ["StitcherTesting"]),
        .library(name: "StitcherMacros", targets: ["StitcherMacros"]),
        .library(name: "StitcherTracing", targets: ["StitcherTracing"]),
        .library(name: "StitcherServiceLifecycle", targets: ["StitcherServiceLifecycle"]),
        .executable(name: "stitcher-demo", targets: ["StitcherDemo"]),
        .executable(name: "stitcher-stress", targets: ["StitcherStress"]),
    ],
    // Each lower bound is a version CI builds and tests with (the tests use swift-log's
    // InMemoryLogging and swift-distributed-tracing's InMemoryTracing, which older releases
    // may lack); raise a bound rather than claim one nothing checks.
    dependencies: [
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Only a command plugin (`swift package generate-documentation`): nothing of it is
        // built into the products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // A thread-local variable and the counters every lookup reads, without lazy initialization (C).
        .target(name: "_StitcherShims"),
        .target(
            name: "Stitcher",
            dependencies: [
                "_StitcherShims",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: nonApplePlatforms)),
            ]
        ),
        .target(name: "StitcherTesting", dependencies: ["Stitcher"]),
        // Macros live in their own targets: a plain `import Stitcher` never builds swift-syntax.
        .macro(
            name: "StitcherMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(name: "StitcherMacros", dependencies: ["Stitcher", "StitcherMacrosPlugin"]),
        // Logging and tracing of a graph's instantiations, on its observer: a product of its
        // own, so that `import Stitcher` builds neither swift-log nor swift-distributed-tracing.
        .target(
            name: "StitcherTracing",
            dependencies: [
                "Stitcher",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // A graph's services run in a swift-service-lifecycle `ServiceGroup`, in dependency order.
        .target(
            name: "StitcherServiceLifecycle",
            dependencies: [
                "Stitcher",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "StitcherDemo", dependencies: ["Stitcher"]),
        // The stress stage (`.ci/run`): every public operation from several threads for a
        // fixed time, in release and under the sanitizers.
        .executableTarget(
            name: "StitcherStress",
            dependencies: [
                "Stitcher",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: nonApplePlatforms)),
            ]
        ),
        .testTarget(
            name: "StitcherTests",
            dependencies: ["Stitcher", "StitcherTesting", .product(name: "Atomics", package: "swift-atomics")]),
        .testTarget(
            name: "StitcherTracingTests",
            dependencies: [
                "StitcherTracing", "StitcherTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "StitcherServiceLifecycleTests",
            dependencies: [
                "StitcherServiceLifecycle", "StitcherTesting",
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "StitcherMacrosTests",
            dependencies: [
                "StitcherMacros", "StitcherMacrosPlugin", "StitcherTesting",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
