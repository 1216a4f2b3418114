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
    /// time is kept within one frame of the movie's rate.
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
            #expect(try Judge.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]).isEmpty, "ffmpeg on \(path)")
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
