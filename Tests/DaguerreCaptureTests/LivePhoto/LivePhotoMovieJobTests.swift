import DaguerreCore
import DaguerreImage
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Synchronization
import Testing

@testable import DaguerreCapture

/// The movie job alone, fed frames by hand: the engine's path for frames larger than the
/// buffer (another output made the camera stream its full size), judged by where a red disc
/// lands in the decoded movie.
@Suite("Live Photo movie job")
struct LivePhotoMovieJobTests {
    @Test("Frames larger than the buffer are cropped and scaled by the engine to the movie, the picture where it belongs (L2)")
    func engineScales() throws {
        let dir = try TemporaryDirectory()
        // A 640×480 stream's movie is 576×432 from 640×480 buffered frames; these frames are
        // 1.5 times that (a non-integer scale for the engine's resampler).
        let format = LivePhotoMovieFormat(streamFormat: CaptureDimensions(width: 640, height: 480))
        #expect(format.movieDimensions == CaptureDimensions(width: 576, height: 432))
        let (w, h) = (960, 720)
        let disc = SIMD2(300.5, 500.5)
        var rgba = try PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
        rgba.withUnsafeMutableBytes { raw in
            for y in 0..<h {
                for x in 0..<w {
                    let dx = Double(x) - disc.x
                    let dy = Double(y) - disc.y
                    let inside = dx * dx + dy * dy < 1600
                    let i = (y * w + x) * 4
                    raw[i] = inside ? 230 : 128
                    raw[i + 1] = inside ? 10 : 128
                    raw[i + 2] = inside ? 10 : 128
                    raw[i + 3] = 255
                }
            }
        }
        let pixels = try YCbCrConversion.makeYCbCr420(from: rgba, fullRange: true)
        let result = Mutex<Result<LivePhotoMovieResult, DaguerreError>?>(nil)
        let path = dir.path("engine.MOV")
        let job = LivePhotoMovieJob(
            request: LivePhotoMovieRequest(
                path: path, format: format, requestTime: 0, autoTrim: false, stabilize: false,
                encoder: MovieSettings(width: 576, height: 432, bitRate: 2_000_000, contentIdentifier: UUID().uuidString)),
            events: LivePhotoMovieEvents(recorded: {}, finished: { r in result.withLock { $0 = r } }))
        let interval = 1.0 / Double(LivePhotoMovieFormat.frameRate)
        for i in 0..<8 {
            job.add(
                BufferedFrame(
                    pixels: pixels, sceneTime: Double(i) * interval, position: .zero, motion: .zero, interval: interval, meanLevel: 128,
                    epoch: 0))
        }
        job.setStillTime(4 * interval)
        job.close(at: 8 * interval)
        job.pump(context: try Context(options: .init(workingColorSpace: nil, cacheIntermediates: false)))
        #expect(job.isDone)
        let made = try #require(try result.withLock { $0 }?.get())
        #expect(abs(made.photoDisplayTime - 4 * interval) < 0.002 && abs(made.duration - 8 * interval) < 0.002)

        let probe = try MovieProbe(path)
        #expect(probe.video?["width"] as? Int == 576 && probe.video?["height"] as? Int == 432)
        #expect(probe.video?["nb_frames"] as? String == "8")
        // The central nine tenths of the frame, scaled by 576/864: the disc's centre moves from
        // (300.5, 500.5) to ((300.5 − 48)·⅔, (500.5 − 36)·⅔) of 576×432.
        let judged = try Judge.python("live_photo_judge.py", ["disc", path, "--frames", "0,4,7"])
        let positions = try #require(judged["positions"] as? [[Double]])
        let expected = SIMD2((disc.x + 0.5 - 48) * 2 / 3 / 576, (disc.y + 0.5 - 36) * 2 / 3 / 432)
        print("disc at \(positions) of the movie, expected \(expected)")
        for p in positions {
            #expect(abs(p[0] - expected.x) * 576 < 0.75 && abs(p[1] - expected.y) * 432 < 0.75)
        }
    }
}
