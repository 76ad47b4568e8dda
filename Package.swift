// swift-tools-version: 6.0
import PackageDescription

/// Platforms without Apple's Combine use OpenCombine for the publisher-based API.
let nonApplePlatforms: [Platform] = [.linux, .windows, .android, .openbsd]

let package = Package(
    name: "Stitcher",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17)],
    products: [
        .library(name: "Stitcher", targets: ["Stitcher"]),
        .library(name: "StitcherTesting", targets: ["StitcherTesting"]),
        .executable(name: "stitcher-demo", targets: ["StitcherDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "Stitcher",
            dependencies: [
                .product(name: "Atomics", package: "swift-atomics"),
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: nonApplePlatforms)),
            ]
        ),
        .target(name: "StitcherTesting", dependencies: ["Stitcher"]),
        .executableTarget(name: "StitcherDemo", dependencies: ["Stitcher"]),
        .testTarget(name: "StitcherTests", dependencies: ["Stitcher", "StitcherTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
