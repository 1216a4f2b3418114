import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// `daguerre capture` (AVCam's job) as a user runs it: each kind of photo into a folder, read
/// back with the package's readers; the resolved settings and the timeline printed; bad option
/// values as usage errors. A 320×240 sensor (`--sensor`) keeps the debug build quick.
@Suite("daguerre capture", .serialized)
struct CaptureCLITests {
    static let small = ["--sensor", "320x240"]

    static func capture(_ args: [String], into dir: TemporaryDirectory, sub: String = "out") throws -> (
        status: Int32, out: String, err: String, folder: String
    ) {
        let folder = dir.path(sub)
        let r = try CLITests.run(["capture"] + args + ["-o", folder])
        return (r.status, r.out, r.err, folder)
    }

    static func jpeg(_ path: String) throws -> JPEGFileMetadata {
        try JPEGFileMetadata(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The milliseconds of the timeline's lines, in printed order.
    static func times(_ out: String) -> [Double] {
        out.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 3, words[1] == "ms" else { return nil }
            return Double(words[0])
        }
    }

    static func meanLevel(_ path: String) throws -> Double { try ImageMeasures.meanLevel(path) }

    @Test("A JPEG with a preview: the resolved settings and the callback timeline printed; the file's size, EXIF and thumbnail")
    func jpegWithPreview() throws {
        let dir = try TemporaryDirectory("capture-cli")
        let r = try Self.capture(Self.small + ["--preview", "160x160"], into: dir)
        #expect(r.status == 0, "\(r.err)")
        #expect(
            r.out.contains("resolved: photo 320×240, preview 160×120, flash off, still-image stabilization off, 1 photo callback"),
            "\(r.out)")
        let events = ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"]
        let positions = events.compactMap { r.out.range(of: $0)?.lowerBound }
        #expect(positions.count == events.count && positions == positions.sorted(), "the documented order: \(r.out)")
        let times = Self.times(r.out)
        #expect(times.count == events.count && times == times.sorted(), "\(times)")
        let file = try Self.jpeg(r.folder + "/photo-1.jpg")
        #expect(file.width == 320 && file.height == 240)
        #expect(file.metadata?.model?.contains("Back Camera") == true, "\(String(describing: file.metadata?.model))")
        let thumbnail = try ImageReader.open(data: try #require(file.thumbnail)).info
        #expect(thumbnail.width == 160 && thumbnail.height == 120, "the preview is the EXIF thumbnail")
    }

    @Test("Uncompressed photos (BGRA, 420f, 420v) are written as PNG at the photo's size", arguments: ["bgra", "420f", "420v"])
    func uncompressed(format: String) throws {
        let dir = try TemporaryDirectory("capture-cli")
        let r = try Self.capture(Self.small + ["--format", format], into: dir)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("320×240 \(format == "bgra" ? "BGRA" : format)"), "\(r.out)")
        let png = try ImageReader.open(path: r.folder + "/photo-1.png").info
        #expect(png.format == .png && png.width == 320 && png.height == 240)
        #expect(try Self.meanLevel(r.folder + "/photo-1.png") > 20, "a picture, not a black frame")
    }

    @Test("RAW is a DNG our reader opens; RAW + JPEG gives both, the processed photo first")
    func raw() throws {
        let dir = try TemporaryDirectory("capture-cli")
        let only = try Self.capture(Self.small + ["--raw"], into: dir, sub: "raw")
        #expect(only.status == 0, "\(only.err)")
        let dng = try DNGReader.read(path: only.folder + "/photo-1.dng")
        #expect(dng.rawSize.width == 320 && dng.rawSize.height == 240)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: only.folder)) == ["photo-1.dng"])

        let plus = try Self.capture(Self.small + ["--raw-plus", "--preview", "80x80"], into: dir, sub: "plus")
        #expect(plus.status == 0, "\(plus.err)")
        let processed = try #require(plus.out.range(of: "didFinishProcessingPhoto"))
        let rawCallback = try #require(plus.out.range(of: "didFinishProcessingRawPhoto"))
        #expect(processed.lowerBound < rawCallback.lowerBound)
        let plusDNG = try DNGReader.read(path: plus.folder + "/photo-1.dng")
        #expect(plusDNG.rawSize.width == 320 && plusDNG.rawSize.height == 240)
        #expect(plusDNG.preview?.width == 80 && plusDNG.preview?.height == 60, "the preview goes into the DNG")
        #expect(try Self.jpeg(plus.folder + "/photo-1.jpg").width == 320)
    }

    @Test("Brackets: one JPEG per image, in order; auto-exposure biases brighten, manual durations and ISOs land in EXIF")
    func brackets() throws {
        let dir = try TemporaryDirectory("capture-cli")
        let auto = try Self.capture(Self.small + ["--bracket", "-2,0,+2"], into: dir, sub: "auto")
        #expect(auto.status == 0, "\(auto.err)")
        #expect(auto.out.contains("AE -2.0 EV") && auto.out.contains("AE +2.0 EV"), "\(auto.out)")
        let levels = try (1...3).map { try Self.meanLevel(auto.folder + "/photo-1-\($0).jpg") }
        #expect(levels == levels.sorted() && levels[0] + 20 < levels[2], "−2, 0, +2 EV: \(levels)")

        let manual = try Self.capture(Self.small + ["--manual-bracket", "1/30@400,0.01@100"], into: dir, sub: "manual")
        #expect(manual.status == 0, "\(manual.err)")
        let first = try #require(try Self.jpeg(manual.folder + "/photo-1-1.jpg").metadata)
        let second = try #require(try Self.jpeg(manual.folder + "/photo-1-2.jpg").metadata)
        #expect(abs((first.exposureTime ?? 0) - 1.0 / 30) < 1e-4 && first.iso == 400, "\(first)")
        #expect(abs((second.exposureTime ?? 0) - 0.01) < 1e-4 && second.iso == 100, "\(second)")
    }

    @Test(
        "Auto flash fires at 1 lux, hand-held; still-image stabilization at 30 lux, hand-held, fuses a burst into one JPEG"
    )
    func lowLight() throws {
        let dir = try TemporaryDirectory("capture-cli")
        let flash = try Self.capture(Self.small + ["--flash", "auto", "--lux", "1", "--motion"], into: dir, sub: "flash")
        #expect(flash.status == 0, "\(flash.err)")
        #expect(flash.out.contains("hand-held") && flash.out.contains("flash on"), "\(flash.out)")
        let exif = try #require(try Self.jpeg(flash.folder + "/photo-1.jpg").metadata)
        #expect((exif.flash ?? 0) & 1 == 1, "EXIF Flash says fired: \(String(describing: exif.flash))")

        let sis = try Self.capture(Self.small + ["--sis", "--lux", "30", "--motion"], into: dir, sub: "sis")
        #expect(sis.status == 0, "\(sis.err)")
        #expect(sis.out.contains("still-image stabilization on"), "\(sis.out)")
        #expect(try Self.jpeg(sis.folder + "/photo-1.jpg").metadata != nil)
    }

    @Test(
        "The front camera's high-resolution still is larger than its stream; --scene photographs an image file; --count overlaps requests in order"
    )
    func frontSceneAndCount() throws {
        let dir = try TemporaryDirectory("capture-cli")
        let front = try Self.capture(
            ["--device", "front", "--sensor", "640x480", "--high-resolution", "--format", "bgra"], into: dir, sub: "front")
        #expect(front.status == 0, "\(front.err)")
        #expect(front.out.contains("Front Camera, 320×240") && front.out.contains("resolved: photo 640×480"), "\(front.out)")
        let png = try ImageReader.open(path: front.folder + "/photo-1.png").info
        #expect(png.width == 640 && png.height == 480)

        let studio = try Self.capture(Self.small, into: dir, sub: "studio")
        let picture = try Self.capture(Self.small + ["--scene", Fixture.kodim(3)], into: dir, sub: "picture")
        #expect(studio.status == 0 && picture.status == 0, "\(picture.err)")
        let a = try Self.meanLevel(studio.folder + "/photo-1.jpg")
        let b = try Self.meanLevel(picture.folder + "/photo-1.jpg")
        #expect(abs(a - b) > 2, "the picture is not the studio scene: \(a) vs \(b)")

        let three = try Self.capture(Self.small + ["--count", "3"], into: dir, sub: "three")
        #expect(three.status == 0, "\(three.err)")
        let order = ["Photo 1:", "Photo 2:", "Photo 3:"].compactMap { three.out.range(of: $0)?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
        for n in 1...3 { #expect(try Self.jpeg(three.folder + "/photo-\(n).jpg").width == 320) }
    }

    @Test("Bad values are usage errors that say what was wrong; refused settings name the broken rule")
    func errors() throws {
        let dir = try TemporaryDirectory("capture-cli")
        let cases: [([String], String)] = [
            (["--flash", "maybe"], "--flash maybe: use off, on, auto"),
            (["--format", "png"], "--format png: use jpeg, bgra, 420f, 420v"),
            (["--bracket", "-2,x"], "'x' is not a bias in EV"),
            (["--manual-bracket", "1/30"], "'1/30' is not DURATION@ISO"),
            (["--preview", "160"], "--preview 160: give WIDTHxHEIGHT"),
            (["--raw", "--raw-plus"], "give one"),
            (["--raw", "--format", "bgra"], "use --raw-plus"),
            (["--device", "front", "--raw"], "RAW comes from the back camera only"),
            (["--count", "0"], "--count 0"),
            (["--sensor", "100x7"], "--sensor 100x7"),
            (["--illuminant", "Z"], "--illuminant Z"),
        ]
        for (args, message) in cases {
            let r = try Self.capture(args, into: dir)
            #expect(r.status == 64, "\(args): usage error, got \(r.status)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        let refused = try Self.capture(Self.small + ["--bracket", "-2,-1,0,1,2"], into: dir)
        #expect(refused.status == 1 && refused.err.contains("bracket-count"), "\(refused.err)")
        let missing = try Self.capture(Self.small + ["--scene", dir.path("nope.png")], into: dir)
        #expect(missing.status == 1 && missing.err.contains("nope.png"), "\(missing.err)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.path("out")))?.isEmpty ?? true)
    }
}
