import DaguerreCore
import DaguerreFuzzTargets
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// Every input a fuzzer crashed on, kept in Tests/fuzz-regressions and replayed through the
/// same calls as its harness (fuzz/Sources). Each must now end in a typed error or a result.
@Suite struct FuzzRegressionTests {
    static let folder = Judge.repoRoot.appendingPathComponent("Tests/fuzz-regressions")

    static func inputs(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    @Test("FuzzDNG crashes, replayed", arguments: inputs("dng-"))
    func dng(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        // The harness's own calls (fuzz/Targets).
        if let plane = FuzzTargets.dng(bytes) {
            #expect(plane.count == 256)
        }
    }

    @Test(
        "FuzzRAWDevelop: its seeds develop in all eight of its modes, and the DNG crashes go through the develop without a trap",
        arguments: [
            "fuzz/corpus-dng/tiny-opcodes.dng", "fuzz/corpus-dng/tiny-uncompressed.dng", "fuzz/corpus-dng/tiny-xtrans-noiseprofile.dng",
        ]
            + inputs("dng-").map { "Tests/fuzz-regressions/" + $0 }
            + inputs("rawdev-").map { "Tests/fuzz-regressions/" + $0 })
    func rawDevelop(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Judge.repoRoot.appendingPathComponent(path)))
        let developed = FuzzTargets.rawDevelop(bytes)
        if path.hasPrefix("fuzz/corpus-dng/") {
            #expect(developed == 8, "\(path): \(developed.map(String.init) ?? "not a DNG")")
        } else {
            #expect((0...8).contains(developed ?? 0))
        }
    }

    @Test("FuzzJPEGMetadata crashes, replayed", arguments: inputs("jpegmeta-"))
    func jpegMetadata(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        // The harness's own calls (fuzz/Targets).
        FuzzTargets.jpegMetadata(bytes)
        #expect(AppleMakerNote(parsing: bytes) == nil)
    }

    @Test(
        "FuzzHEIF: its seeds open and decode through every accessor; the ExoPlayer sample too",
        arguments: [
            ("fuzz/corpus-heif/plain.heic", 256), ("fuzz/corpus-heif/exif-xmp.heic", 256), ("fuzz/corpus-heif/icc.heic", 256),
            ("fuzz/corpus-heif/nclx.heic", 256), ("fuzz/corpus-heif/alpha.heic", 256), ("fuzz/corpus-heif/10bit.heic", 256),
            ("fuzz/corpus-heif/thumbnail.heic", 1024), ("fuzz/corpus-heif/motion-mpvd.heic", 256),
            ("Tests/Resources/third-party/exoplayer_sample_MP.heic", 0),
        ])
    func heifSeeds(_ path: String, _ pixels: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: Judge.repoRoot.appendingPathComponent(path)))
        let decoded = FuzzTargets.heif(bytes)
        // The ExoPlayer sample is larger than the harness's 2¹⁸ pixels: it opens, and its decode is refused.
        #expect(decoded == (pixels > 0 ? pixels : nil))
        if pixels == 0 { #expect(try HEIFFile(bytes: bytes).width > 512) }
    }

    @Test("FuzzHEIF crashes, replayed", arguments: inputs("heif-"))
    func heif(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        // The harness's own calls (fuzz/Targets).
        if let pixels = FuzzTargets.heif(bytes) {
            #expect(pixels > 0 && pixels <= 1 << 18)
        }
    }

    @Test(
        "An nclx box naming primaries libheif does not know: the file opens without a colour profile (the profile libheif allocated is freed)"
    )
    func heifUnknownPrimaries() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("heif-nclx-unknown-primaries-leak.heic")))
        let file = try HEIFFile(bytes: bytes)
        #expect(file.colorProfile == .none)
        #expect(file.width == 16 && file.height == 16)
    }
}
