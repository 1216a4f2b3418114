import DaguerreCore
import DaguerreFormats
import DaguerreFuzzTargets
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

/// The Motion Photo readers against the FuzzMotionPhoto harness's seeds and crashes: the JPEG
/// split, the MP4 after it, a HEIC motion photo's box walk and the Live Photo editor opening the
/// file must end in a result or a DaguerreError, never a trap.
@Suite("Motion Photo readers against hostile input")
struct MotionPhotoRobustnessTests {
    /// The crash inputs of this harness kept in Tests/fuzz-regressions.
    static func crashInputs() -> [String] {
        let folder = Judge.repoRoot.appendingPathComponent("Tests/fuzz-regressions").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("motionphoto-") }.sorted()
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Judge.repoRoot.appendingPathComponent(path)))
    }

    @Test("A Motion Photo the project writes (16×16 JPEG, 3-frame MP4) goes through every layer of the harness, up to the editor")
    func projectSeed() throws {
        let still = try Self.bytes("fuzz/corpus/rgb.jpg")
        let video = try Self.bytes("fuzz/corpus-quicktime/seed-tiny.mp4")
        let file = try MotionPhoto.make(primary: still, video: video, presentationTimestampUs: 33_333)
        #expect(file.count < 8192)
        let parts = try MotionPhoto.split(file)
        #expect(Array(file[parts.video]) == video)
        #expect(FuzzTargets.motionPhoto(file) == 3)
        let dir = try TemporaryDirectory()
        let path = dir.path("seed-tiny.MP.jpg")
        try Data(file).write(to: URL(fileURLWithPath: path))
        SampleFiles.keep(path)
    }

    @Test(
        "The seeds reach as far as they should: the project's and the Pixel's open for editing, the S20's cut movie reads but is refused, a stripped video splits only",
        arguments: [
            ("fuzz/corpus-motionphoto/seed-tiny.MP.jpg", 3),
            ("Tests/Resources/third-party/exoplayer_pixel3a_motion_photo_gcontainer_shortened.jpg", 3),
            // Its MP4 was cut short (ffprobe: "missing mandatory atoms"): the box reader opens
            // it, the editor refuses it with a typed error.
            ("Tests/Resources/third-party/exoplayer_galaxy_s20_microvideo_shortened.jpg", 2),
            ("Tests/Resources/third-party/exoplayer_pixel4xl_motion_photo_video_removed.jpg", 1),
        ])
    func seeds(_ path: String, _ depth: Int) throws {
        let reached = FuzzTargets.motionPhoto(try Self.bytes(path))
        #expect(reached == depth, "\(path) reached \(reached)")
    }

    @Test("FuzzMotionPhoto crashes, replayed", arguments: crashInputs())
    func regressions(_ name: String) throws {
        let bytes = try Self.bytes("Tests/fuzz-regressions/" + name)
        #expect((0...3).contains(FuzzTargets.motionPhoto(bytes)))
    }
}
