// swift-tools-version: 6.1
import PackageDescription

// A Hummingbird 2 JSON API wired with Stitcher: its own package, so that the library gains
// no dependency on Hummingbird.
let package = Package(
    name: "TodoServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "todo-server", targets: ["TodoServerApp"]),
        .executable(name: "todo-scope-cost", targets: ["TodoScopeCost"]),
    ],
    dependencies: [
        .package(name: "Stitcher", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // For `todo-scope-cost swift-dependencies` only (the same request bound with
        // swift-dependencies): its `Dependencies` library, no traits, so no macros to build.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: []),
    ],
    targets: [
        .target(
            name: "TodoServer",
            dependencies: [
                .product(name: "Stitcher", package: "Stitcher"),
                .product(name: "StitcherServiceLifecycle", package: "Stitcher"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "TodoServerApp", dependencies: ["TodoServer"]),
        // The request scope's cost per request, in process (see the README's load check).
        .executableTarget(
            name: "TodoScopeCost",
            dependencies: [
                "TodoServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
        .testTarget(
            name: "TodoServerTests",
            dependencies: [
                "TodoServer",
                .product(name: "StitcherTesting", package: "Stitcher"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
