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
        .executableTarget(name: "FuzzDecode", dependencies: [.product(name: "Daguerre", package: parent)]),
        .executableTarget(name: "FuzzDNG", dependencies: [.product(name: "Daguerre", package: parent)]),
        .executableTarget(name: "FuzzJPEGMetadata", dependencies: [.product(name: "Daguerre", package: parent)]),
        .executableTarget(name: "FuzzQuickTime", dependencies: [.product(name: "DaguerreFormats", package: parent)]),
    ],
    swiftLanguageModes: [.v6]
)
