import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreLivePhoto

/// Frames arrive upright (SPEC E2): the still's EXIF orientation and the movie's display matrix
/// are applied the same way, so one crop means the same region of the scene in both.
@Suite("Live Photo orientation")
struct LivePhotoOrientationTests {
    /// The centre of the red disc's pixels in an 8-bit RGB(A) buffer, as fractions of its width
    /// and height.
    static func redCentre(_ b: PixelBuffer) -> (Double, Double)? {
        var (sx, sy, n) = (0.0, 0.0, 0.0)
        let step = b.format.bytesPerPixel
        guard step == 3 || step == 4 else { return nil }
        b.withUnsafeBytes { p in
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let i = y * b.bytesPerRow + x * step
                    if p[i] > 150, p[i + 1] < 90, p[i + 2] < 90 {
                        sx += Double(x) + 0.5
                        sy += Double(y) + 0.5
                        n += 1
                    }
                }
            }
        }
        return n > 0 ? (sx / n / Double(b.width), sy / n / Double(b.height)) : nil
    }

    @Test(
        "A square crop covers the same scene region in the still and the movie for the four turns (EXIF 1, 6, 3, 8 and their matrices), H.264 saved as JPEG + H.264 and HEVC as HEIC + HEVC",
        arguments: [1, 6, 3, 8], [VideoCodec.h264, .hevc])
    func squareCropEveryTurn(orientation: Int, codec: VideoCodec) async throws {
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir, frames: 12, orientation: orientation, codec: codec)
        let movieIn = try MovieReader(path: pair.moviePath)
        let stored = try #require(movieIn.tracks.first { $0.mediaType == .video })
        #expect(stored.transform.exifOrientation == orientation, "the fixture's matrix")
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        #expect(context.orientation == orientation)
        #expect(context.fullSizeImage.extent.width == 640 && context.fullSizeImage.extent.height == 480, "the still is upright")
        #expect(context.movieSize == Size(width: 320, height: 240), "the movie is upright")
        context.frameProcessor = LivePhotoEditingTests.squareCrop
        let stillName = codec == .hevc ? "OUT.HEIC" : "OUT.JPG"
        var output = ContentEditingOutput(
            contentEditingInput: input, still: dir.url.appendingPathComponent(stillName), movie: dir.url.appendingPathComponent("OUT.MOV"))
        #expect(output.pairFormat == (codec == .hevc ? .heic : .jpeg))
        output.adjustmentData = LivePhotoEditingTests.adjustment("square")
        try await context.saveLivePhoto(to: output)
        for path in [dir.path(stillName), dir.path("OUT.MOV")] {
            let v = try Judge.run("exiftool", ["-validate", "-warning", "-a", "-s3", path])
            #expect(v.hasPrefix("OK"), "exiftool -validate \(path): \(v)")
        }
        #expect(try Judge.ffmpegDecodeMessages(dir.path("OUT.MOV")).isEmpty)
        let probe = try MovieProbe(dir.path("OUT.MOV"))
        #expect(probe.video?["codec_name"] as? String == (codec == .hevc ? "hevc" : "h264"))
        // Reopened (a HEIC + HEVC pair is an input too) and saved again from the adjustment data:
        // the same bytes.
        let again = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let second = try LivePhotoEditingContext(livePhotoEditingInput: again)
        second.frameProcessor = LivePhotoEditingTests.squareCrop
        var redo = ContentEditingOutput(
            contentEditingInput: again, still: dir.url.appendingPathComponent("AGAIN-" + stillName),
            movie: dir.url.appendingPathComponent("AGAIN.MOV"))
        redo.adjustmentData = output.adjustmentData
        try await second.saveLivePhoto(to: redo)
        for (a, b) in [(stillName, "AGAIN-" + stillName), ("OUT.MOV", "AGAIN.MOV")] {
            #expect(try ImageSource.readFile(dir.path(a)) == (try ImageSource.readFile(dir.path(b))), "\(a): resumed byte for byte")
        }
        let reopened = try LivePhotoEditingContext(
            livePhotoEditingInput: ContentEditingInput(
                still: dir.url.appendingPathComponent(stillName), movie: dir.url.appendingPathComponent("OUT.MOV")))
        #expect(reopened.fullSizeImage.extent.width == 480 && reopened.movieSize == Size(width: 240, height: 240))

        let still = try ImageReader.readAll(path: dir.path(stillName))
        #expect(still.width == 480 && still.height == 480)
        let movie = try MovieReader(path: dir.path("OUT.MOV"))
        let video = try #require(movie.tracks.first { $0.mediaType == .video })
        #expect(video.width == 240 && video.height == 240)
        #expect(video.transform.exifOrientation == 1, "the saved movie's pixels are upright")
        // Movie frame 5 shows the disc where the still does (x = 0.3 of the width; y = 0.4).
        let frame = try #require(try movie.decodeFrames(track: video.id, range: 5..<6).first)
        let a = try #require(Self.redCentre(still))
        let b = try #require(Self.redCentre(frame))
        // The crop keeps x 80…560 of 640: the disc at 192 is at (192 - 80) / 480.
        let expected = ((0.3 * 640 - 80) / 480, 0.4)
        print("orientation \(orientation), \(codec): still disc at \(a), movie frame 5 at \(b), scene truth \(expected)")
        for c in [a, b] {
            #expect(abs(c.0 - expected.0) < 0.01 && abs(c.1 - expected.1) < 0.01, "\(c) against \(expected)")
        }
    }
}
