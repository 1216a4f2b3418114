import Daguerre
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Testing

/// `daguerre inspect` and `daguerre motionphoto` on files the project writes.
@Suite struct InspectCLITests {
    /// A small Live Photo pair: a 64×48 JPEG and a three-frame 64×48 movie with one identifier.
    static func pair(in dir: TemporaryDirectory) throws -> LivePhotoPair {
        var frame = try PixelBuffer(width: 64, height: 48, format: .rgba8, colorSpace: .sRGB, alpha: .straight)
        frame.withUnsafeMutableBytes { b in for i in 0..<b.count { b[i] = UInt8(truncatingIfNeeded: i / 3) } }
        var rgb = try PixelBuffer(width: 64, height: 48, format: .rgb8, colorSpace: .sRGB, alpha: .straight)
        rgb.withUnsafeMutableBytes { b in for i in 0..<b.count { b[i] = UInt8(truncatingIfNeeded: i / 2) } }
        let still = SampleBuffer(pixels: rgb, photoMetadata: PhotoMetadata(make: "Daguerre", model: "Inspect Test"))
        let settings = MovieSettings(
            width: 64, height: 48, frameRate: 15, bitRate: 200_000, audio: .init(sampleRate: 44_100, channels: 1),
            stillImageTime: MediaTime(value: 1, timescale: 15))
        return try LivePhotoPair.write(
            still: still, preview: SampleBuffer(pixels: frame), stillPath: dir.path("IMG_0002.JPG"),
            moviePath: dir.path("IMG_0002.MOV"), movie: settings
        ) { (r) throws(DaguerreError) in
            for i in 0..<3 {
                try r.append(frame: frame, at: MediaTime(value: Int64(i), timescale: 15))
                try r.append(audio: [Int16](repeating: 0, count: 2940))
            }
        }
    }

    @Test("inspect --json reports EXIF, the MakerNote identifier and the pairing for a JPEG; tracks and metadata for its MOV")
    func inspectPair() throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.pair(in: dir)
        let jpeg = try CLITests.run(["inspect", "--json", pair.stillPath])
        #expect(jpeg.status == 0, "\(jpeg.err)")
        let j = try #require(try JSONSerialization.jsonObject(with: Data(jpeg.out.utf8)) as? [String: Any])
        #expect(j["format"] as? String == "JPEG")
        #expect((j["exif"] as? [String: Any])?["makerNote.contentIdentifier"] as? String == pair.contentIdentifier)
        #expect((j["pairing"] as? [String: Any])?["paired"] as? Bool == true)
        #expect(j["thumbnail"] != nil)

        let mov = try CLITests.run(["inspect", "--json", pair.moviePath])
        #expect(mov.status == 0, "\(mov.err)")
        let m = try #require(try JSONSerialization.jsonObject(with: Data(mov.out.utf8)) as? [String: Any])
        #expect(m["format"] as? String == "QuickTime movie")
        let codecs = (m["tracks"] as? [[String: Any]])?.compactMap { $0["codec"] as? String }
        #expect(codecs == ["avc1", "sowt", "mebx"])
        #expect((m["metadata"] as? [String: Any])?["com.apple.quicktime.content.identifier"] as? String == pair.contentIdentifier)
        #expect((m["pairing"] as? [String: Any])?["paired"] as? Bool == true)

        let text = try CLITests.run(["inspect", pair.stillPath])
        #expect(text.status == 0 && text.out.contains("contentIdentifier: \(pair.contentIdentifier)"))
    }

    @Test("motionphoto turns the pair into IMG.MP.jpg; inspect sees the Container directory; a wrong name is refused")
    func motionPhoto() throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.pair(in: dir)
        let out = dir.path("IMG_0002.MP.jpg")
        let r = try CLITests.run(["motionphoto", pair.stillPath, pair.moviePath, "-o", out])
        #expect(r.status == 0, "\(r.err)")
        let inspect = try CLITests.run(["inspect", "--json", out])
        let j = try #require(try JSONSerialization.jsonObject(with: Data(inspect.out.utf8)) as? [String: Any])
        let items = ((j["motionPhoto"] as? [String: Any])?["items"] as? [[String: Any]])?.compactMap { $0["semantic"] as? String }
        #expect(items == ["Primary", "MotionPhoto"])
        let bad = try CLITests.run(["motionphoto", pair.stillPath, pair.moviePath, "-o", dir.path("x.jpg")])
        #expect(bad.status != 0 && bad.err.contains("MP.jpg"))
    }

    @Test("inspect on HEICs: the format, the displayed size, EXIF, colour, the gain map and a motion photo's video; no movie error")
    func inspectHEIC() throws {
        let iphone = Judge.testdata.appendingPathComponent("third-party/photoprism_iphone_15_pro.heic").path
        let r = try CLITests.run(["inspect", "--json", iphone])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.out.contains("damaged") && !r.err.contains("damaged"))
        let j = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(j["format"] as? String == "HEIC")
        // Displayed upright: the 4032×3024 coded image turned by its irot.
        #expect(j["width"] as? Int == 3024 && j["height"] as? Int == 4032)
        #expect(j["storedWidth"] as? Int == 4032 && j["storedHeight"] as? Int == 3024)
        #expect(j["colorSpace"] as? String == "Display P3")
        let exif = try #require(j["exif"] as? [String: Any])
        #expect(exif["make"] as? String == "Apple" && exif["model"] as? String == "iPhone 15 Pro")
        let aux = try #require(j["auxiliaryImages"] as? [[String: Any]])
        #expect(aux.map { $0["kind"] as? String } == ["hdrGainMap"])

        let samsung = Judge.testdata.appendingPathComponent("third-party/immich_samsung_one_ui_6_motion_photo.heic").path
        let s = try CLITests.run(["inspect", "--json", samsung])
        #expect(s.status == 0, "\(s.err)")
        let k = try #require(try JSONSerialization.jsonObject(with: Data(s.out.utf8)) as? [String: Any])
        #expect(k["format"] as? String == "HEIC" && k["width"] as? Int == 3000 && k["height"] as? Int == 4000)
        #expect((k["motionPhoto"] as? [String: Any])?["videoBytes"] as? Int == 3_226_469)
        #expect((k["exif"] as? [String: Any])?["model"] as? String == "SM-S906U")

        let text = try CLITests.run(["inspect", iphone])
        #expect(text.status == 0 && text.out.contains("format: HEIC") && text.out.contains("urn:com:apple:photo:2020:aux:hdrgainmap"))
    }

    @Test("inspect on DNGs: tags of ours, and a LinearRaw DNG's kind and planes")
    func inspectDNG() throws {
        let dir = try TemporaryDirectory()
        var raw = try BayerImage(width: 64, height: 64, pattern: .bggr)
        raw.blackLevel = [64, 64, 64, 64]
        try DNGWriter.write(DNGImage(raw: raw, uniqueCameraModel: "Inspect"), to: dir.path("a.dng"))
        let r = try CLITests.run(["inspect", "--json", dir.path("a.dng")])
        let j = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(j["cfa"] as? String == "bgg4" && j["rawKind"] as? String == "CFA")
        #expect(j["uniqueCameraModel"] as? String == "Inspect")
        let canon = Judge.testdata.appendingPathComponent("third-party/photoprism_canon_eos_6d.dng").path
        let c = try CLITests.run(["inspect", "--json", canon])
        let cj = try #require(try JSONSerialization.jsonObject(with: Data(c.out.utf8)) as? [String: Any], "\(c.out) \(c.err)")
        #expect(cj["rawKind"] as? String == "LinearRaw" && cj["samplesPerPixel"] as? Int == 3)
        #expect(cj["width"] as? Int == 1224 && cj["height"] as? Int == 816)
    }
}
