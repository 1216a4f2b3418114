// swift-tools-version: 6.0
// libFuzzer harnesses for Daguerre's readers (image-rs keeps its fuzz/ the same way). A package of
// its own, so the fuzzer's entry point (no `main`) never touches the main build. See README.md.
import Foundation
import PackageDescription

// The parent package's identity is its directory name, whatever the checkout is called.
let parent = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "DaguerreFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // What each harness does: the same folder the parent package compiles for the crash
        // replays in its tests (FuzzRegressionTests), built here as a target of this package,
        // so it uses the parent's public (and SPI) interface only. Here also the entry points.
        .target(
            name: "DaguerreFuzzTargets",
            dependencies: [.product(name: "Daguerre", package: parent), .product(name: "DaguerreFormats", package: parent)], path: "Targets"
        ),
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
        .executableTarget(name: "FuzzDNG", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
        .executableTarget(name: "FuzzHEIF", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
        .executableTarget(name: "FuzzJPEGMetadata", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
        .executableTarget(name: "FuzzMotionPhoto", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
        .executableTarget(name: "FuzzQuickTime", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
        .executableTarget(name: "FuzzRAWDevelop", dependencies: ["FuzzDriver", "DaguerreFuzzTargets"]),
    ],
    swiftLanguageModes: [.v6]
)
