// swift-tools-version: 6.2
import PackageDescription

// An app module isolated to the main actor by default (as new app targets are), using
// Stitcher. CI builds it with zero warnings and runs its tests.
let package = Package(
    name: "MainActorApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "Stitcher", path: "../..")],
    targets: [
        .target(
            name: "MainActorApp",
            dependencies: [
                .product(name: "Stitcher", package: "Stitcher"),
                .product(name: "StitcherMacros", package: "Stitcher"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "MainActorAppTests",
            dependencies: [
                "MainActorApp",
                .product(name: "Stitcher", package: "Stitcher"),
                .product(name: "StitcherTesting", package: "Stitcher"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
