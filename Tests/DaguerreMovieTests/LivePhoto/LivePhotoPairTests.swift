import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

/// Live Photo pairs and Motion Photos, judged by exiftool and ffprobe (SPEC L3, L6).
@Suite struct LivePhotoPairTests {
    /// A pair: a Display P3 JPEG and a 1440×1080 movie with audio, sharing a new identifier.
    static func makePair(in dir: TemporaryDirectory) throws -> LivePhotoPair {
        let source = try MovieFixture.Source(width: 1440, height: 1080, frames: 45)
        let still = SampleBuffer(pixels: try TestPhotos.gradient(width: 1440, height: 1080), photoMetadata: TestPhotos.metadata())
        let preview = SampleBuffer(pixels: try TestPhotos.gradient(width: 320, height: 240))
        var settings = QuickTimeWriterTests.liveSettings()
        settings.contentIdentifier = nil
        let audio = MovieFixture.tone(seconds: 3, channels: 1)
        return try LivePhotoPair.write(
            still: still, preview: preview, stillPath: dir.path("IMG_0001.JPG"),
            moviePath: dir.path("IMG_0001.MOV"), movie: settings
        ) { (recorder) throws(DaguerreError) in
            for i in 0..<45 {
                do { try recorder.append(frame: try source.frame(i), at: MediaTime(value: Int64(i) * 40, timescale: 600)) } catch let e
                    as DaguerreError
                { throw e } catch { throw .processorFailed(name: "test frames", reason: "\(error)") }
                try recorder.append(audio: Array(audio[(i * 2940)..<((i + 1) * 2940)]))
            }
        }
    }

    @Test("Pair: the JPEG's Apple:MediaGroupUUID equals the MOV's Keys:ContentIdentifier, and our reader pairs them")
    func pair() throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.makePair(in: dir)
        let still = try Judge.run("exiftool", ["-s3", "-Apple:MediaGroupUUID", pair.stillPath]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let movie = try Judge.run("exiftool", ["-s3", "-Keys:ContentIdentifier", pair.moviePath]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(!still.isEmpty && still == movie, "JPEG \(still) vs MOV \(movie)")
        #expect(still == pair.contentIdentifier)
        let back = try LivePhotoPair.read(still: pair.stillPath, movie: pair.moviePath)
        #expect(back.contentIdentifier == pair.contentIdentifier)
        #expect(back.stillImageTime == MediaTime(seconds: 1.5))
        SampleFiles.keep(pair.stillPath)
        SampleFiles.keep(pair.moviePath)

        // A still from another pair is refused by name.
        let other = SampleBuffer(pixels: try TestPhotos.gradient(width: 64, height: 48), photoMetadata: TestPhotos.metadata())
        try AtomicFile.write(
            try PhotoDataRepresentation.jpegPhotoDataRepresentation(forJPEGSampleBuffer: other, previewPhotoSampleBuffer: nil),
            to: dir.path("other.jpg"))
        let error = try #require(throws: DaguerreError.self) {
            _ = try LivePhotoPair.read(still: dir.path("other.jpg"), movie: pair.moviePath)
        }
        #expect(error.message.contains("differs"))
    }

    @Test(
        "Motion Photo: exiftool reads MotionPhoto 1 and the Container directory; -EmbeddedVideo is the appended MP4, which ffprobe accepts")
    func motionPhoto() throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.makePair(in: dir)
        let mp4 = try MotionPhotoVideo.mp4(fromLivePhotoMovie: pair.moviePath)
        let file = try pair.motionPhoto()
        let path = dir.path("IMG_0001.MP.jpg")
        try AtomicFile.write(file, to: path)
        SampleFiles.keep(path)
        let appendedIsTheMP4 = Array(file.suffix(mp4.count)) == mp4  // a Bool: a failure must not print megabytes
        #expect(appendedIsTheMP4)

        let tags = try Judge.run("exiftool", ["-a", "-G1", "-s", "-n", "-XMP-GCamera:all", "-XMP-Container:all", path])
        print(tags)
        #expect(tags.contains("MotionPhoto                     : 1"))
        #expect(tags.contains("MotionPhotoVersion              : 1"))
        #expect(tags.contains("MotionPhotoPresentationTimestampUs: 1500000"))
        #expect(tags.contains("DirectoryItemSemantic") && tags.contains("MotionPhoto") && tags.contains("\(mp4.count)"))

        let extracted = dir.path("embedded.mp4")
        // exiftool 12.57 (Debian bookworm) reads JPEG trailers only with -ee (ExtractEmbedded).
        _ = try Judge.run("sh", ["-c", "exiftool -b -ee -EmbeddedVideo '\(path)' > '\(extracted)'"])
        let embedded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: extracted)))
        let identical = embedded == mp4
        #expect(identical, "exiftool extracted \(embedded.count) bytes; \(mp4.count) were appended")
        let probe = try MovieProbe(extracted)
        #expect(probe.streams.contains { $0["codec_name"] as? String == "h264" })
        #expect(try Judge.ffmpegDecodeMessages(extracted).isEmpty)

        // Our own splitter finds the same two parts; the primary still decodes.
        let parts = try MotionPhoto.split(file)
        let splitIsTheMP4 = Array(file[parts.video]) == mp4
        #expect(splitIsTheMP4)
        #expect(try JPEGFileMetadata(bytes: Array(file[parts.primary])).width == 1440)
        let validation = try Judge.run("exiftool", ["-validate", "-warning", "-a", path])
        print("exiftool -validate on the Motion Photo:", validation)
    }
}
