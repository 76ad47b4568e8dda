// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the library gains no dependency.
// Run them with: swift package --package-path Benchmarks benchmark
let package = Package(
    name: "StitcherBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Stitcher", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        // Its `Dependencies` library only: no traits (clocks, Combine schedulers), and so no
        // macros and no swift-syntax to build.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "StitcherBenchmarks",
            dependencies: [
                .product(name: "Stitcher", package: "Stitcher"),
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                "OpaqueUse",
                "ScopeWorkload",
            ],
            path: "Benchmarks/StitcherBenchmarks",
            // Swift 5 mode, with the inference Swift 6 makes: `Dependency(autowiring: T.init)`
            // takes the initializer of a Sendable type as a `@Sendable` function, as users write it.
            swiftSettings: [.swiftLanguageMode(.v5), .enableUpcomingFeature("InferSendableFromCaptures")],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .target(name: "OpaqueUse", path: "Sources/OpaqueUse"),
        // Heap statistics from the C library, for the memory workloads.
        .target(name: "HeapStatistics", path: "Sources/HeapStatistics"),
        .target(
            name: "ScopeWorkload",
            dependencies: [
                .product(name: "Stitcher", package: "Stitcher"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                "OpaqueUse",
            ],
            path: "Sources/ScopeWorkload"
        ),
        .executableTarget(
            name: "Profile",
            dependencies: [
                .product(name: "Stitcher", package: "Stitcher"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                "HeapStatistics",
                "OpaqueUse",
                "ScopeWorkload",
            ],
            path: "Sources/Profile"
        ),
    ]
)
