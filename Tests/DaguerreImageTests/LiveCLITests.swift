import DaguerreTestSupport
import Foundation
import Testing

/// `daguerre live` as a user runs it on real files (SPEC E1, E7): info, an edit saved as a pair
/// and as a Motion Photo, and the edit redone from its adjustment data, byte for byte.
@Suite("daguerre live")
struct LiveCLITests {
    static let still = Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.jpg").path
    static let movie = Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.mov").path

    @Test("live info, live edit (square crop, a filter, the volume), --resume gives the same bytes, a HEIC motion photo saved as one")
    func infoEditResume() throws {
        let dir = try TemporaryDirectory()
        let info = try CLITests.run(["live", "info", Self.still, Self.movie])
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("4032×3024") && info.out.contains("photo time: 0.480 s"), "\(info.out)")

        let edit = try CLITests.run([
            "live", "edit", Self.still, Self.movie, "-o", dir.path("a"), "--crop", "square", "--filter", "SepiaTone", "intensity=0.6",
            "--volume", "0.5",
        ])
        #expect(edit.status == 0, "\(edit.err)")
        let names = ["lychee_iphone6s_live_train.JPG", "lychee_iphone6s_live_train.MOV", "lychee_iphone6s_live_train.AAE"]
        let a = names.map { dir.path("a/\($0)") }
        #expect(names.allSatisfy { FileManager.default.fileExists(atPath: dir.path("a/\($0)")) })
        #expect(try Judge.run("exiftool", ["-s3", "-ImageSize", a[0]]).hasPrefix("3024x3024"))
        let again = try CLITests.run(["live", "edit", Self.still, Self.movie, "-o", dir.path("b"), "--resume", a[0]])
        #expect(again.status == 0, "\(again.err)")
        for name in names {
            let first = try Data(contentsOf: URL(fileURLWithPath: dir.path("a/\(name)")))
            let second = try Data(contentsOf: URL(fileURLWithPath: dir.path("b/\(name)")))
            #expect(first == second, "\(name): resumed from the XMP, byte for byte")
        }
        let edited = try CLITests.run(["live", "info", a[0], a[1]])
        #expect(edited.out.contains("edited: photo.daguerre.live-edit"), "\(edited.out)")

        let heic = Fixture.thirdParty.appendingPathComponent("exoplayer_sample_MP.heic").path
        let mp = try CLITests.run(["live", "edit", heic, "-o", dir.path("c"), "--format", "motion-photo", "--crop", "square"])
        #expect(mp.status == 0, "\(mp.err)")
        let out = dir.path("c/exoplayer_sample_MP.MP.jpg")
        #expect(try Judge.run("exiftool", ["-validate", "-warning", "-a", "-s3", out]).hasPrefix("OK"))
        #expect(try Judge.run("exiftool", ["-s3", "-MotionPhoto", out]).hasPrefix("1"))
    }
}
