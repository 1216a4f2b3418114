import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreLivePhoto

/// Motion Photos from real phones and in every layout phones write (SPEC E1, E7): each opens,
/// takes a square crop and saves as a pair and as a Motion Photo, judged by exiftool and ffmpeg.
@Suite("Live Photo editing: phones' files")
struct LivePhotoRealFilesTests {
    /// Saves `input` with a square crop as a JPEG + MOV pair and as a Motion Photo, and judges
    /// both: exiftool -validate, ffmpeg decodes without a message, the halves pair, the photo
    /// time is kept within one frame of the movie's rate, the video's length is kept.
    static func editAndJudge(_ input: ContentEditingInput, in dir: TemporaryDirectory, name: String) async throws {
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        context.frameProcessor = LivePhotoEditingTests.squareCrop
        let media = context.media
        let frame = media.frameTimes.count > 1 ? media.duration.seconds / Double(media.frameTimes.count - 1) : 1
        let side = Int(min(context.fullSizeImage.extent.width, context.fullSizeImage.extent.height))

        let still = dir.url.appendingPathComponent("\(name).JPG")
        let movie = dir.url.appendingPathComponent("\(name).MOV")
        try await context.saveLivePhoto(to: ContentEditingOutput(contentEditingInput: input, still: still, movie: movie))
        let pair = try LivePhotoPair.read(still: still.path, movie: movie.path)
        let uuid = try Judge.run("exiftool", ["-s3", "-MakerNotes:MediaGroupUUID", still.path]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let content = try Judge.run("exiftool", ["-s3", "-Keys:ContentIdentifier", movie.path]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(!uuid.isEmpty && uuid == content && uuid == pair.contentIdentifier, "\(name): the halves pair")
        let stillImageTime = try Judge.run("exiftool", ["-ee", "-s3", "-StillImageTime", movie.path])
        #expect(!stillImageTime.isEmpty, "\(name): exiftool finds the still-image-time item")
        // The video lasts as long as the original's (its frames' times and lengths kept; the
        // recorder's clock is 1/600 s, so the end rounds to it).
        let saved = try LivePhotoEditingContext(livePhotoEditingInput: ContentEditingInput(still: still, movie: movie))
        #expect(
            abs(saved.media.videoEnd.seconds - media.videoEnd.seconds) <= 1.0 / 600,
            "\(name): video \(media.videoEnd.seconds) s → \(saved.media.videoEnd.seconds) s")
        #expect(abs((pair.stillImageTime?.seconds ?? -1) - context.photoTime.seconds) <= frame, "\(name): photo time kept")
        #expect(try JPEGFileMetadata(path: still.path).width == side)

        let motion = dir.url.appendingPathComponent("\(name).MP.jpg")
        try await context.saveLivePhoto(to: ContentEditingOutput(contentEditingInput: input, motionPhoto: motion))
        let parts = try MotionPhoto.split(try ImageSource.readFile(motion.path))
        let mp4 = dir.path("\(name)-video.mp4")
        try AtomicFile.write(Array(try ImageSource.readFile(motion.path)[parts.video]), to: mp4)
        for path in [still.path, movie.path, motion.path] {
            let v = try Judge.run("exiftool", ["-validate", "-warning", "-a", "-s3", path])
            #expect(v.hasPrefix("OK"), "exiftool -validate \(path): \(v)")
        }
        for path in [movie.path, mp4] {
            #expect(try Judge.ffmpegDecodeMessages(path).isEmpty, "ffmpeg on \(path)")
        }
        let reopened = try LivePhotoEditingContext(livePhotoEditingInput: ContentEditingInput(motionPhoto: motion))
        #expect(abs(reopened.photoTime.seconds - context.photoTime.seconds) <= frame, "\(name): the Motion Photo keeps the photo time")
        print(
            "\(name): \(Int(context.fullSizeImage.extent.width))×\(Int(context.fullSizeImage.extent.height)) still, movie \(context.movieSize.width)×\(context.movieSize.height) \(context.duration.seconds) s, photo at \(context.photoTime.seconds) s → \(side)×\(side), pair \(uuid)"
        )
    }

    @Test(
        "Real HEIC motion photos open, crop, and save as a pair and as a Motion Photo (E1, E7)",
        arguments: ["exoplayer_sample_MP.heic", "immich_samsung_one_ui_6_motion_photo.heic"])
    func heicMotionPhotos(file: String) async throws {
        let dir = try TemporaryDirectory()
        try await Self.editAndJudge(
            ContentEditingInput(motionPhoto: Fixture.thirdParty.appendingPathComponent(file)), in: dir, name: "edited")
    }

    @Test(
        "Motion Photos in every layout phones write open and save: Container, GContainer, MicroVideo, Samsung's trailer (E1)",
        arguments: LivePhotoFixtures.MotionPhotoLayout.allCases)
    func layouts(layout: LivePhotoFixtures.MotionPhotoLayout) async throws {
        let dir = try TemporaryDirectory()
        let url = try LivePhotoFixtures.makeMotionPhoto(in: dir, layout: layout)
        let context = try LivePhotoEditingContext(livePhotoEditingInput: ContentEditingInput(motionPhoto: url))
        #expect(abs(context.photoTime.seconds - 6.0 / 15) < 0.001, "\(layout): the still at frame 6")
        #expect(context.movieSize == Size(width: 320, height: 240))
        try await Self.editAndJudge(ContentEditingInput(motionPhoto: url), in: dir, name: "edited")
    }

    @Test(
        "A pair in today's iPhone layout: a turned movie, an auxiliary video track, two mebx tracks, the still placed by an empty edit, a tref to a missing track, no ftyp (E1, E2)"
    )
    func todaysLayout() async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir, frames: 12, orientation: 6)
        let photo = try ModernLivePhotoFixture.rebuild(pair)
        let movie = try MovieReader(path: pair.moviePath)
        #expect(movie.tracks.filter { $0.codec == "mebx" }.count == 2)
        #expect(movie.tracks.filter { $0.mediaType == .video }.count == 2)
        #expect(movie.tracks.contains { $0.references["vmap"] == [9] })
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        #expect(abs(context.photoTime.seconds - photo.seconds) < 0.001, "the empty edit places the still at \(photo.seconds) s")
        #expect(context.movieSize == Size(width: 320, height: 240), "turned upright by the matrix")
        try await Self.editAndJudge(input, in: dir, name: "edited")
    }

    /// HDR movies (HEVC Main 10, BT.2020, HLG) as the movie of a pair: an iPhone 14 Pro's, and
    /// ffmpeg's test pattern through libx265 (saturated bars, where the readings differ). The
    /// edit's H.264 movie is tagged Display P3 and holds what ffmpeg's own colour conversion of
    /// the source makes of it: BT.2020 through the BT.2020 curve (HLG's SDR-compatible
    /// picture) to P3 values on the sRGB curve, which Apple tags transfer 1.
    @Test(
        "An HDR (BT.2020, HLG) movie edits into a movie whose Display P3 tags say what its pixels are (E7, W5)",
        arguments: ["iPhone 14 Pro", "libx265 test pattern"])
    func hdrMovieTags(source name: String) async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir, frames: 6)
        var hdrPath = Fixture.thirdParty.appendingPathComponent("media3_iphone14pro_dolbyvision_hdr.mov").path
        if name != "iPhone 14 Pro" {
            hdrPath = dir.path("pattern.mov")
            try Judge.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:d=0.4", "-c:v", "libx265", "-x265-params",
                    "log-level=none", "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67",
                    "-colorspace", "bt2020nc", "-tag:v", "hvc1", hdrPath,
                ])
        }
        let hdr = try MovieReader(path: hdrPath)
        let video = try #require(hdr.tracks.first { $0.mediaType == .video })
        // The pair's movie rebuilt around the HDR video, tagged as iPhones tag it: same content
        // identifier, no still-image time (the still is then the middle frame).
        let writer = try MovieWriter(fileType: .quickTimeMovie)
        var format = VideoTrackFormat(
            width: try #require(video.width), height: try #require(video.height),
            decoderConfiguration: try #require(video.decoderConfiguration),
            colorProperties: VideoColorProperties(primaries: 9, transfer: 18, matrix: 9), timescale: video.timescale)
        format.transform = video.transform
        let track = try writer.addVideoTrack(format)
        try writer.appendSamples(of: video, from: hdr, to: track)
        writer.metadata = try MovieReader(path: pair.moviePath).metadata
        _ = try writer.finish()
        let source = dir.path("HDR.MOV")
        try AtomicFile.write(writer.data, to: source)
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: source))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        let (stillOut, movieOut) = (URL(fileURLWithPath: dir.path("OUT.JPG")), URL(fileURLWithPath: dir.path("OUT.MOV")))
        try await context.saveLivePhoto(to: ContentEditingOutput(contentEditingInput: input, still: stillOut, movie: movieOut))
        let probe = try MovieProbe(movieOut.path)
        #expect(probe.video?["color_primaries"] as? String == "smpte432", "\(probe.video ?? [:])")
        // Frame 2 of both, upright, as 8-bit RGB: ffmpeg converts the source's colours itself.
        func frame(_ path: String, _ filter: String) throws -> [UInt8] {
            let out = dir.path("frame-\(UUID().uuidString).rgb")
            try Judge.run(
                "ffmpeg",
                [
                    "-v", "error", "-i", path, "-vf",
                    "\(filter)select=eq(n\\,2),scale=in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgb24", "-frames:v", "1",
                    "-f", "rawvideo", out,
                ])
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        let convert =
            "colorspace=iprimaries=bt2020:itrc=bt2020-10:ispace=bt2020ncl:irange=tv:primaries=%@:trc=iec61966-2-1:space=bt709:range=tv:format=yuv420p,"
        let ours = try frame(movieOut.path, "")
        let expected = try frame(source, String(format: convert, "smpte432"))
        // The other reading: the BT.2020 numbers left as they are, under P3 tags.
        let untouched = try frame(source, String(format: convert, "bt2020"))
        #expect(!ours.isEmpty && expected.count == ours.count && untouched.count == ours.count)
        let mse = zip(ours, expected).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(max(1, ours.count))
        let psnr = 10 * log10(255 * 255 / max(mse, 1e-9))
        // Where the two readings differ by 8 levels or more in a channel (saturated colours):
        // the mean distance of ours to each.
        var (toRight, toWrong, counted) = (0.0, 0.0, 0)
        for p in stride(from: 0, to: min(ours.count, expected.count, untouched.count) - 2, by: 3) {
            let d = (0..<3).map { abs(Int(expected[p + $0]) - Int(untouched[p + $0])) }.max() ?? 0
            guard d >= 8 else { continue }
            counted += 1
            toRight += (0..<3).reduce(0.0) { $0 + abs(Double(ours[p + $1]) - Double(expected[p + $1])) } / 3
            toWrong += (0..<3).reduce(0.0) { $0 + abs(Double(ours[p + $1]) - Double(untouched[p + $1])) } / 3
        }
        toRight /= Double(max(1, counted))
        toWrong /= Double(max(1, counted))
        print(
            "HDR movie (\(name)) edited: PSNR against ffmpeg's BT.2020 → P3 conversion \(String(format: "%.2f", psnr)) dB; \(counted) pixels where the readings differ: mean distance \(String(format: "%.2f", toRight)) levels to the conversion, \(String(format: "%.2f", toWrong)) to the numbers left in BT.2020"
        )
        #expect(psnr >= 30, "the edit's colours against ffmpeg's conversion: \(psnr) dB")
        if name != "iPhone 14 Pro" {  // the iPhone's scene is nearly grey: the readings agree
            #expect(counted >= 1000 && toRight < toWrong / 2, "nearer the P3 conversion (\(toRight)) than the numbers left (\(toWrong))")
        }
    }

    @Test("ExoPlayer's cut-down samples are refused, each naming what is missing; ffmpeg or Pillow fail on them too (E1)")
    func cutDownSamples() async throws {
        let cases: [(String, String)] = [
            ("exoplayer_pixel4xl_motion_photo_shortened.jpg", "no frames"),  // sample tables removed; ffmpeg: "missing mandatory atoms"
            ("exoplayer_galaxy_s20_microvideo_shortened.jpg", "no frames"),  // likewise
            ("exoplayer_pixel4xl_motion_photo_video_removed.jpg", "stripped"),
        ]
        for (file, words) in cases {
            let input = ContentEditingInput(motionPhoto: Fixture.thirdParty.appendingPathComponent(file))
            let error = try #require(throws: DaguerreError.self) { _ = try LivePhotoEditingContext(livePhotoEditingInput: input) }
            print("\(file): \(error.message)")
            #expect(error.message.contains(words), "\(file): \(error.message)")
        }
        // The Pixel 3a file's GContainer directory is read and its movie parsed, but its JPEG's
        // scan is cut (Pillow: "image file is truncated"): the save says so and writes nothing.
        let dir = try TemporaryDirectory()
        let url = Fixture.thirdParty.appendingPathComponent("exoplayer_pixel3a_motion_photo_gcontainer_shortened.jpg")
        let context = try LivePhotoEditingContext(livePhotoEditingInput: ContentEditingInput(motionPhoto: url))
        #expect(context.movieSize == Size(width: 180, height: 120) && abs(context.photoTime.seconds - 0.867) < 0.001)
        let output = ContentEditingOutput(
            contentEditingInput: ContentEditingInput(motionPhoto: url), motionPhoto: dir.url.appendingPathComponent("out.MP.jpg"))
        let error = try await #require(throws: DaguerreError.self) { try await context.saveLivePhoto(to: output) }
        print("\(url.lastPathComponent): \(error.message)")
        #expect(error.message.contains("truncated"))
        #expect(dir.contents().isEmpty)
    }
}
