// swift-tools-version: 6.0
// Daguerre's benchmarks (README.md): the daguerre-bench harness and the in-process timers. A
// package of its own, so that packages depending on Daguerre never resolve or build them.
// Built with the same flags as the CLI, from the repository root:
//   swift build --package-path Benchmarks -c release $(scripts/swift-flags) --product raw-bench
import Foundation
import PackageDescription

// The parent package's identity is its directory name, whatever the checkout is called.
let parent = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

func daguerre(_ product: String) -> Target.Dependency { .product(name: product, package: parent) }

let package = Package(
    name: "DaguerreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // The whole-process harness (Foundation only): runs the daguerre CLI, the peers and the tools below.
        .executableTarget(name: "daguerre-bench", path: "daguerre-bench"),
        .executableTarget(
            name: "daguerre-formats-bench", dependencies: [daguerre("DaguerreCore"), daguerre("DaguerreFormats")], path: "formats-bench"),
        // Times recording a Live Photo movie in-process (run by daguerre-bench's livephoto-mov scenario);
        // --encoder both compares x264 and OpenH264 on the same frames, --psnr their quality.
        .executableTarget(
            name: "livephoto-mov-bench",
            dependencies: [daguerre("DaguerreCore"), daguerre("DaguerreFormats"), daguerre("DaguerreMovie"), "BenchmarkMeasures"],
            path: "livephoto-mov"),
        // Makes the RAW benchmark's DNGs and times draft re-renders (daguerre-bench's raw scenarios).
        .executableTarget(name: "raw-bench", dependencies: [daguerre("Daguerre")], path: "raw"),
        // Times raw noise reduction as the develop source runs it (NOISE_RESULTS.md).
        .executableTarget(
            name: "raw-nr-bench", dependencies: [daguerre("DaguerreCore"), daguerre("DaguerreRAW"), daguerre("DaguerreFormats")],
            path: "raw-nr"),
        // The benchmarks' clock, CPU time, resident set, median and frame errors (PSNR).
        .target(name: "BenchmarkMeasures", dependencies: [daguerre("DaguerreCore")], path: "measures"),
        // Times PhotoOutput: latency, first capture unprepared and prepared, sustained rate, overlap.
        .executableTarget(
            name: "photo-capture-bench",
            dependencies: [
                daguerre("DaguerreCapture"), daguerre("DaguerreVirtualCamera"), daguerre("DaguerreRAW"), daguerre("DaguerreImage"),
                daguerre("DaguerreFormats"), "BenchmarkMeasures",
            ],
            path: "photo-capture"),
        // Times Live Photo capture: the movie's completion after its last frame, sustained captures, CPU shares.
        .executableTarget(
            name: "live-photo-bench",
            dependencies: [
                daguerre("DaguerreCapture"), daguerre("DaguerreVirtualCamera"), daguerre("DaguerreMovie"), daguerre("DaguerreFormats"),
                daguerre("DaguerreImage"), "BenchmarkMeasures",
            ],
            path: "live-photo"),
        // Times the burst merge of still-image stabilization on 8 virtual 12 MP frames.
        .executableTarget(
            name: "burst-merge-bench", dependencies: [daguerre("DaguerreRAW"), daguerre("DaguerreVirtualCamera")], path: "burst-merge"),
        // Times Live Photo editing: the full-size save and the 640 px playback preview of a 12 MP + 1440×1080 pair.
        .executableTarget(
            name: "live-edit-bench",
            dependencies: [
                daguerre("DaguerreCore"), daguerre("DaguerreImage"), daguerre("DaguerreMovie"), daguerre("DaguerreLivePhoto"),
                "BenchmarkMeasures",
            ], path: "live-edit"),
        .executableTarget(
            name: "virtual-camera-bench", dependencies: [daguerre("DaguerreVirtualCamera"), daguerre("DaguerreCapture")],
            path: "virtual-camera"),
    ],
    swiftLanguageModes: [.v6]
)
