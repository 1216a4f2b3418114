import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreLivePhoto

/// Editing Live Photos (SPEC E1–E7): the real iPhone 6s pair and small pairs made here, judged
/// by exiftool, ffprobe and ffmpeg, and by the pixels.
@Suite("Live Photo editing")
struct LivePhotoEditingTests {
    /// The largest centred square, in whole pixels.
    static let squareCrop: LivePhotoFrameProcessor = { frame in
        let e = frame.image.extent
        let side = min(e.width, e.height).rounded(.down)
        return frame.image.cropped(
            to: Rect(x: ((e.width - side) / 2).rounded(.down), y: ((e.height - side) / 2).rounded(.down), width: side, height: side))
    }

    /// A blur of `radius` pixels of the full-size still, scaled by the frame's renderScale.
    static func blur(_ radius: Double) -> LivePhotoFrameProcessor {
        { (frame) throws(DaguerreError) -> Image in
            let e = frame.image.extent
            return try frame.image.clampedToExtent()
                .applyingFilter("GaussianBlur", parameters: ["inputRadius": .number(radius * frame.renderScale)]).cropped(to: e)
        }
    }

    static func adjustment(_ text: String) -> AdjustmentData {
        AdjustmentData(formatIdentifier: "photo.daguerre.tests", formatVersion: "1", data: Array(text.utf8))
    }

    @Test("The iPhone 6s pair: opens, saves a square crop that pairs, validates and keeps the photo time and duration (E1, E7)")
    func iPhonePair() async throws {
        let dir = try TemporaryDirectory()
        let input = ContentEditingInput(still: LivePhotoFixtures.iPhoneStill, movie: LivePhotoFixtures.iPhoneMovie)
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        #expect(context.fullSizeImage.extent.width == 4032 && context.fullSizeImage.extent.height == 3024)
        #expect(context.movieSize == Size(width: 1440, height: 1080))
        #expect(abs(context.photoTime.seconds - 0.48) < 0.002)
        #expect(context.orientation == 1)
        context.frameProcessor = Self.squareCrop
        var output = ContentEditingOutput(
            contentEditingInput: input, still: dir.url.appendingPathComponent("IMG.JPG"), movie: dir.url.appendingPathComponent("IMG.MOV"))
        output.adjustmentData = Self.adjustment("square")
        try await context.saveLivePhoto(to: output)
        #expect(Set(dir.contents()) == ["IMG.JPG", "IMG.MOV", "IMG.AAE"])

        let still = dir.path("IMG.JPG")
        let movie = dir.path("IMG.MOV")
        let size = try Judge.run("exiftool", ["-s3", "-ImageSize", still]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(size == "3024x3024")
        let pair = try LivePhotoPair.read(still: still, movie: movie)
        let uuid = try Judge.run("exiftool", ["-s3", "-MakerNotes:MediaGroupUUID", still]).trimmingCharacters(in: .whitespacesAndNewlines)
        let content = try Judge.run("exiftool", ["-s3", "-Keys:ContentIdentifier", movie]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!uuid.isEmpty && uuid == content && uuid == pair.contentIdentifier)
        #expect(uuid != "E905E6C6-C747-4805-942F-9904A0281F02", "a new identifier: the edit is a new pair")
        let frame = 1001.0 / 30_000
        #expect(abs((pair.stillImageTime?.seconds ?? -1) - 0.48) <= frame)
        let probe = try MovieProbe(movie)
        #expect(probe.video?["width"] as? Int == 1080 && probe.video?["height"] as? Int == 1080)
        #expect(probe.video?["nb_frames"] as? String == "22")
        #expect(probe.audio?["codec_name"] as? String == "pcm_s16le")
        let duration = try MovieReader(path: movie).duration.seconds
        print(
            "iPhone 6s pair edited: \(size), movie 1080×1080, duration \(duration) s (original 1.233 s), photo at \(pair.stillImageTime?.seconds ?? -1) s"
        )
        // The video keeps every frame's time and length, the last one's too (1.2333 s: 740/600).
        #expect(abs(duration - 740.0 / 600) < 0.5 / 600, "duration \(duration) s")
        #expect(try Judge.ffmpegDecodeMessages(movie).isEmpty)
        for path in [still, movie] {
            let v = try Judge.run("exiftool", ["-validate", "-warning", "-a", "-s3", path])
            #expect(v.hasPrefix("OK"), "exiftool -validate \(path): \(v)")
        }
        #expect(try AdjustmentData.read(fromStill: still) == Self.adjustment("square"))
        #expect(try AdjustmentData(sidecar: dir.url.appendingPathComponent("IMG.AAE")) == Self.adjustment("square"))
    }

    @Test("Resuming from the adjustment data gives the same files byte for byte; the volume scales the sound (E7)")
    func roundTrip() async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir)
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        var saved: [[UInt8]] = []
        for run in ["first", "again"] {
            // Each run rebuilds the edit from its adjustment data, as an app resuming it would.
            let data = Self.adjustment("blur 6, volume 0.5")
            let radius = String(decoding: data.data, as: UTF8.self).hasPrefix("blur 6") ? 6.0 : 0
            let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
            context.frameProcessor = Self.blur(radius)
            context.audioVolume = 0.5
            try FileManager.default.createDirectory(atPath: dir.path(run), withIntermediateDirectories: true)
            var output = ContentEditingOutput(
                contentEditingInput: input, still: URL(fileURLWithPath: dir.path("\(run)/IMG.JPG")),
                movie: URL(fileURLWithPath: dir.path("\(run)/IMG.MOV")))
            output.adjustmentData = data
            try await context.saveLivePhoto(to: output)
            for name in ["IMG.JPG", "IMG.MOV", "IMG.AAE"] { saved.append(try ImageSource.readFile(dir.path("\(run)/\(name)"))) }
        }
        #expect(saved[0] == saved[3] && saved[1] == saved[4] && saved[2] == saved[5], "the resumed edit differs")
        // The same as a Motion Photo: the same bytes again, and its XMP well-formed XML (Python's
        // parser refuses a repeated attribute, which exiftool lets pass).
        var motionPhotos: [[UInt8]] = []
        for run in ["first", "again"] {
            let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
            context.frameProcessor = Self.blur(6)
            var output = ContentEditingOutput(contentEditingInput: input, motionPhoto: URL(fileURLWithPath: dir.path("\(run)/IMG.MP.jpg")))
            output.adjustmentData = Self.adjustment("blur 6, volume 0.5")
            try await context.saveLivePhoto(to: output)
            motionPhotos.append(try ImageSource.readFile(dir.path("\(run)/IMG.MP.jpg")))
        }
        #expect(motionPhotos[0] == motionPhotos[1], "the resumed Motion Photo differs")
        let packet = try Judge.run("exiftool", ["-b", "-XMP", dir.path("first/IMG.MP.jpg")])
        #expect(packet.contains("DaguerreAdjustment:FormatIdentifier"), "the adjustment namespace keeps its prefix")
        #expect(packet.components(separatedBy: "about=").count == 2, "rdf:about once: \(packet)")
        try Judge.parseXML(packet)
        // The sound at half volume.
        let original = try MovieReader(path: pair.moviePath)
        let edited = try MovieReader(path: dir.path("first/IMG.MOV"))
        let a = try original.pcm16Samples(track: try #require(original.tracks.first { $0.mediaType == .audio }).id)
        let b = try edited.pcm16Samples(track: try #require(edited.tracks.first { $0.mediaType == .audio }).id)
        #expect(a.count == b.count)
        let peak = (a.map { abs(Int($0)) }.max() ?? 0, b.map { abs(Int($0)) }.max() ?? 0)
        print("tone peak \(peak.0) → \(peak.1) at volume 0.5")
        #expect(abs(Double(peak.1) - Double(peak.0) / 2) <= 1)
        // A reader that does not know the format says so.
        #expect(throws: DaguerreError.self) {
            try Self.adjustment("x").requireHandled(formatIdentifier: "com.example.other", versions: ["1"])
        }
    }

    /// The still blurred by `processor` at full size then shrunk to the movie's scale, and
    /// shrunk first then blurred at that renderScale, each rendered to sRGB RGBA.
    static func blurredBothWays(_ input: ContentEditingInput, _ processor: @escaping LivePhotoFrameProcessor) throws
        -> (PixelBuffer, PixelBuffer, Double)
    {
        let media = try LivePhotoMedia.open(input)
        let context = try Context()
        let render = LivePhotoRender(
            media: media, processor: processor, audioVolume: 1, isCancelled: { false }, context: context, what: "test")
        let scale = media.videoRenderScale
        let full = try render.still(scale: 1).applyingFilter("LanczosScaleTransform", parameters: ["inputScale": .number(scale)])
        let small = try render.still(scale: scale)
        let (w, h) = (Int(small.extent.width), Int(small.extent.height))
        var a = try PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
        var b = try PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
        let bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        try context.render(full, to: &a, bounds: bounds, colorSpace: .sRGB)
        try context.render(small, to: &b, bounds: bounds, colorSpace: .sRGB)
        return (a, b, scale)
    }

    /// PSNR over R, G and B of two RGBA8 buffers of one size.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let pa = a.withUnsafeBytes { Array($0) }
        let pb = b.withUnsafeBytes { Array($0) }
        var sum = 0.0
        var n = 0
        for i in 0..<min(pa.count, pb.count) where i % 4 != 3 {
            let d = Double(pa[i]) - Double(pb[i])
            sum += d * d
            n += 1
        }
        return sum == 0 ? 99 : 10 * log10(255 * 255 * Double(n) / sum)
    }

    @Test("One blur, scaled by renderScale: the still blurred then shrunk and the still shrunk then blurred agree (E4)")
    func renderScaleConsistency() throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir, stillWidth: 960, stillHeight: 720, frames: 4)
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let (a, b, scale) = try Self.blurredBothWays(input, Self.blur(24))
        #expect(abs(scale - 0.5) < 1e-9)
        #expect(a.width == 480 && a.height == 360)
        let psnr = Self.psnr(a, b)
        print("blur 24 px: full size then shrunk vs shrunk then blurred at renderScale \(scale): PSNR \(psnr) dB")
        #expect(psnr >= 40)
    }

    @Test("A preview at a target size: the still and the movie fitted into it, through the processor (E6)")
    func preview() async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir)
        let context = try LivePhotoEditingContext(
            livePhotoEditingInput: ContentEditingInput(
                still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath)))
        context.frameProcessor = Self.squareCrop
        let preview = try await context.prepareLivePhotoForPlayback(targetSize: Size(width: 200, height: 200))
        let still = try JPEGFileMetadata(path: preview.stillURL.path)
        #expect(still.width == 150 && still.height == 150, "640×480 fitted into 200×200 is 200×150; its square is 150")
        #expect(preview.size == Size(width: 150, height: 150))
        let probe = try MovieProbe(preview.movieURL.path)
        #expect(probe.video?["width"] as? Int == 150)
        _ = try LivePhotoPair.read(still: preview.stillURL.path, movie: preview.movieURL.path)
        #expect(dir.contents().sorted() == ["IMG.JPG", "IMG.MOV"], "the preview writes only to its own temporary folder")
    }

    @Test("Not a Live Photo: mismatched or missing identifiers, a stripped Motion Photo, a truncated movie; nothing written (E1)")
    func badInput() async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir)
        let cases: [(ContentEditingInput, String)] = [
            (ContentEditingInput(still: LivePhotoFixtures.iPhoneStill, movie: URL(fileURLWithPath: pair.moviePath)), "differs"),
            (
                ContentEditingInput(still: URL(fileURLWithPath: Fixture.kodim(1)), movie: URL(fileURLWithPath: pair.moviePath)),
                "neither a JPEG nor a HEIC"
            ),
            (
                ContentEditingInput(
                    motionPhoto: Fixture.thirdParty.appendingPathComponent("exoplayer_pixel4xl_motion_photo_video_removed.jpg")), "stripped"
            ),
            (
                ContentEditingInput(
                    motionPhoto: Fixture.thirdParty.appendingPathComponent("exoplayer_pixel4xl_motion_photo_shortened.jpg")), "no frames"
            ),
            (ContentEditingInput(motionPhoto: Fixture.thirdParty.appendingPathComponent("exiftool_t_Apple.jpg")), "XMP"),
        ]
        for (input, words) in cases {
            let error = try #require(throws: DaguerreError.self) { _ = try LivePhotoEditingContext(livePhotoEditingInput: input) }
            print("\(input.fullSizeImageURL.lastPathComponent): \(error.message)")
            #expect(error.message.contains(words), "\(error.message)")
        }
        // A JPEG without an identifier beside the movie.
        let plain = dir.path("plain.jpg")
        try AtomicFile.write(
            try PhotoDataRepresentation.jpegPhotoDataRepresentation(
                forJPEGSampleBuffer: SampleBuffer(pixels: try LivePhotoFixtures.picture(width: 64, height: 48, disc: (10, 10, 4))),
                previewPhotoSampleBuffer: nil), to: plain)
        let missing = try #require(throws: DaguerreError.self) {
            _ = try LivePhotoEditingContext(
                livePhotoEditingInput: ContentEditingInput(still: URL(fileURLWithPath: plain), movie: URL(fileURLWithPath: pair.moviePath)))
        }
        #expect(missing.message.contains("content identifier"))
        // A truncated movie.
        let cut = dir.path("cut.MOV")
        try AtomicFile.write(Array(try ImageSource.readFile(pair.moviePath).prefix(5000)), to: cut)
        #expect(throws: DaguerreError.self) {
            _ = try LivePhotoEditingContext(
                livePhotoEditingInput: ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: cut)))
        }
        // Saving over an original is refused before anything is rendered.
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        let over = ContentEditingOutput(
            contentEditingInput: input, still: URL(fileURLWithPath: dir.path("new.JPG")), movie: URL(fileURLWithPath: pair.moviePath))
        await #expect(throws: DaguerreError.self) { try await context.saveLivePhoto(to: over) }
        #expect(dir.contents().sorted() == ["IMG.JPG", "IMG.MOV", "cut.MOV", "plain.jpg"])
    }

    @Test("cancel() and a processor that throws end the save and the preview with their error; nothing is written (E5, E6)")
    func cancelAndThrow() async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir)
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        let output = ContentEditingOutput(
            contentEditingInput: input, still: URL(fileURLWithPath: dir.path("out.JPG")), movie: URL(fileURLWithPath: dir.path("out.MOV")))
        // Cancelled from inside, at the third video frame: deterministic.
        context.frameProcessor = { [weak context] frame in
            if frame.type == .video, frame.time.seconds > 0.1 { context?.cancel() }
            return frame.image
        }
        let cancelled = await #expect(throws: DaguerreError.self) { try await context.saveLivePhoto(to: output) }
        if case .cancelled = cancelled {} else { Issue.record("expected .cancelled, got \(String(describing: cancelled))") }
        context.frameProcessor = { (frame) throws(DaguerreError) -> Image in
            if frame.type == .video { throw .processorFailed(name: "test", reason: "no video today") }
            return frame.image
        }
        let thrown = await #expect(throws: DaguerreError.self) { try await context.saveLivePhoto(to: output) }
        #expect(thrown?.message.contains("no video today") == true)
        // A preview small enough to shrink the frames runs on three threads (decoding, render,
        // encoder); an error or a cancellation stops all three and ends the preview with it.
        let small = Size(width: 160, height: 160)
        let previewThrown = await #expect(throws: DaguerreError.self) { try await context.prepareLivePhotoForPlayback(targetSize: small) }
        #expect(previewThrown?.message.contains("no video today") == true)
        context.frameProcessor = { [weak context] frame in
            if frame.type == .video, frame.time.seconds > 0.1 { context?.cancel() }
            return frame.image
        }
        let previewCancelled = await #expect(throws: DaguerreError.self) {
            try await context.prepareLivePhotoForPlayback(targetSize: small)
        }
        if case .cancelled = previewCancelled {} else { Issue.record("expected .cancelled, got \(String(describing: previewCancelled))") }
        context.frameProcessor = nil
        let preview = try await context.prepareLivePhotoForPlayback(targetSize: small)
        #expect(preview.size == Size(width: 160, height: 120))
        #expect(dir.contents().sorted() == ["IMG.JPG", "IMG.MOV"])
    }
}
