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
        // What each harness does lives in the parent package (DaguerreFuzzTargets, fuzz/Targets),
        // where the crash replays in its tests call the same code; here only the entry points.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzDriver", .product(name: "DaguerreFuzzTargets", package: parent)]),
        .executableTarget(name: "FuzzDNG", dependencies: ["FuzzDriver", .product(name: "DaguerreFuzzTargets", package: parent)]),
        .executableTarget(name: "FuzzJPEGMetadata", dependencies: ["FuzzDriver", .product(name: "DaguerreFuzzTargets", package: parent)]),
        .executableTarget(name: "FuzzQuickTime", dependencies: ["FuzzDriver", .product(name: "DaguerreFuzzTargets", package: parent)]),
        .executableTarget(name: "FuzzRAWDevelop", dependencies: ["FuzzDriver", .product(name: "DaguerreFuzzTargets", package: parent)]),
    ],
    swiftLanguageModes: [.v6]
)
