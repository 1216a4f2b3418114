import DaguerreCapture
import DaguerreCore
import DaguerreTestSupport
import Foundation
import Synchronization
import Testing

/// One row of the W3 table.
struct WideColorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let situation: WideColorPolicy.Situation
    let expected: CaptureColorSpace
    var testDescription: String { "\(name) → \(expected)" }

    init(
        _ name: String, photo: Bool = true, preview: Bool = false, movie: Bool = false, videoData: Bool = false,
        preset: CaptureSession.Preset, wideFormat: Bool = true, _ expected: CaptureColorSpace
    ) {
        self.name = name
        situation = WideColorPolicy.Situation(
            hasPhotoOutput: photo, hasPreviewSink: preview, hasMovieFileOutput: movie,
            hasVideoDataOutput: videoData, preset: preset, formatSupportsWideColor: wideFormat)
        self.expected = expected
    }
}

@Suite("Wide colour: the W3 rule, W4 forcing P3, frames carrying their colour space", .hangGuard)
struct WideColorTests {
    static let w3Table: [WideColorCase] = [
        WideColorCase("no photo output, preview sink", photo: false, preview: true, preset: .photo, .sRGB),
        WideColorCase("no photo output, video data output", photo: false, videoData: true, preset: .photo, .sRGB),
        WideColorCase("no photo output, nothing else", photo: false, preset: .photo, .sRGB),
        WideColorCase("photo output alone, photo preset", preset: .photo, .p3D65),
        WideColorCase("photo output alone, high preset", preset: .high, .p3D65),
        WideColorCase("photo + preview, photo preset", preview: true, preset: .photo, .p3D65),
        WideColorCase("photo + preview, high preset", preview: true, preset: .high, .p3D65),
        WideColorCase("photo + movie", movie: true, preset: .photo, .sRGB),
        WideColorCase("photo + movie + preview", preview: true, movie: true, preset: .photo, .sRGB),
        WideColorCase("photo + video data, photo preset", videoData: true, preset: .photo, .p3D65),
        WideColorCase("photo + video data, high preset", videoData: true, preset: .high, .sRGB),
        WideColorCase("photo + video data, inputPriority", videoData: true, preset: .inputPriority, .sRGB),
        WideColorCase("photo + video data + preview, photo preset", preview: true, videoData: true, preset: .photo, .p3D65),
        WideColorCase("photo + video data + preview, medium preset", preview: true, videoData: true, preset: .medium, .sRGB),
        WideColorCase("photo + video data + movie, photo preset", movie: true, videoData: true, preset: .photo, .sRGB),
        WideColorCase("photo + preview, format without P3 (W2)", preview: true, preset: .photo, wideFormat: false, .sRGB),
        WideColorCase("photo alone, format without P3 (W2)", preset: .photo, wideFormat: false, .sRGB),
    ]

    @Test("W3 rule table", arguments: w3Table)
    func w3Rule(_ row: WideColorCase) {
        #expect(WideColorPolicy.resolve(row.situation) == row.expected)
    }

    @Test(
        "W3 in a session: photo + preview gets P3 frames; adding a MovieFileOutput turns the camera sRGB and rebuilds the running pipeline")
    func w3Session() throws {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let events = EventLog(session)
        let camera = try FakeCamera.small()
        let preview = PreviewSink()
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(input(camera))
        try session.addOutput(PhotoOutput())
        try session.addOutput(preview)
        try session.commitConfiguration()
        #expect(camera.activeFormat.pixelFormat == .yuv420FullRange)
        #expect(camera.activeColorSpace == .p3D65)

        try session.startRunning()
        clock.advance(by: 0.1)
        #expect(preview.colorSpace == .p3D65)
        #expect(preview.latestFrame?.yCbCrBuffer?.colorProperties.primaries == 12)

        try session.addOutput(MovieFileOutput())
        #expect(camera.activeColorSpace == .sRGB, "a movie output makes the intent ambiguous: sRGB")
        clock.advance(by: 0.1)
        #expect(preview.colorSpace == .sRGB)
        session.stopRunning()
        #expect(events.all == [.didStartRunning, .pipelineRebuilt(.colorSpaceChanged(.sRGB)), .didStopRunning])
    }

    @Test("W3 in a session: a VideoDataOutput beside the photo output gets P3 only with the photo preset")
    func w3VideoData() throws {
        let session = CaptureSession(clock: VirtualClock())
        let camera = try FakeCamera.small()
        session.beginConfiguration()
        try session.addInput(input(camera))
        try session.addOutput(PhotoOutput())
        try session.addOutput(VideoDataOutput())
        try session.commitConfiguration()
        #expect(session.sessionPreset == .high)
        #expect(camera.activeColorSpace == .sRGB)
        try session.setSessionPreset(.photo)
        #expect(camera.activeColorSpace == .p3D65)
        try session.setSessionPreset(.medium)
        #expect(camera.activeColorSpace == .sRGB)
    }

    @Test("With automatic wide colour, the session overrides the app's P3 at start when the rule says sRGB")
    func automaticOverridesApp() throws {
        let session = CaptureSession(clock: VirtualClock())
        let camera = try FakeCamera.small()
        try session.addInput(input(camera))
        try session.addOutput(VideoDataOutput())
        try camera.setActiveColorSpace(.p3D65)
        try session.startRunning()
        #expect(camera.activeColorSpace == .sRGB, "no photo output: no wide colour")
        session.stopRunning()
    }

    @Test(
        "W4: automatic off, a wide 420f format and P3 set by the app: P3 frames reach the video data output, the preview and the movie (ffprobe: smpte432)"
    )
    func w4ForcedP3() throws {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let camera = try FakeCamera.small()
        let videoData = VideoDataOutput()
        videoData.alwaysDiscardsLateVideoFrames = false
        videoData.maximumQueuedFrameCount = 100
        let frames = FrameLog(videoData)
        let preview = PreviewSink()
        let movie = MovieFileOutput()
        session.beginConfiguration()
        session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try session.addInput(input(camera))
        try session.addOutput(videoData)
        try session.addOutput(preview)
        try session.addOutput(movie)
        try session.commitConfiguration()
        let wide = try #require(camera.formats.first { $0.isWideColorSupported && $0.dimensions.width == 320 })
        try camera.setActiveFormat(wide)
        try camera.setActiveColorSpace(.p3D65)

        try session.startRunning()
        #expect(camera.activeColorSpace == .p3D65, "automatic off: the session leaves the app's choice alone")
        let dir = try TemporaryDirectory("capture-w4")
        let path = dir.path("p3.mov")
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<String, DaguerreError>?>(nil)
        try movie.startRecording(to: path) { result in
            outcome.mutate { $0 = result }
            done.signal()
        }
        clock.advance(by: 0.49)
        movie.stopRecording()
        #expect(wait(done, "the P3 movie"))
        session.stopRunning()

        #expect(try outcome.value?.get() == path)
        let delivered = frames.all
        #expect(delivered.count == 15)
        #expect(delivered.allSatisfy { $0.captureColorSpace == .p3D65 && $0.yCbCrBuffer?.colorProperties.primaries == 12 })
        #expect(preview.colorSpace == .p3D65)
        let probe = try MovieProbe(path)
        #expect(probe.video?["color_primaries"] as? String == "smpte432")
        #expect(probe.video?["width"] as? Int == 320 && probe.video?["height"] as? Int == 240)
        #expect(probe.video?["nb_frames"] as? String == "15")
    }
}
