import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("MovieFileOutput: recordings judged by ffprobe (C2)", .hangGuard)
struct MovieFileOutputTests {
    @Test(
        "One second from a fake 420f camera and microphone: H.264 320×240, 30 frames, 1 s, PCM 44.1 kHz mono, BT.709 video range; pixels converted from full range"
    )
    func recordOneSecond() throws {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let camera = try FakeCamera.small()
        let movie = MovieFileOutput()
        session.beginConfiguration()
        try session.setSessionPreset(.medium)  // no 480×360: the smallest format ≥ 640 wide
        try session.addInput(input(camera))
        try session.addInput(input(FakeMicrophone()))
        try session.addOutput(movie)
        try session.commitConfiguration()
        #expect(camera.activeFormat.dimensions == CaptureDimensions(width: 640, height: 480))
        let small = try #require(camera.formats.first { $0.dimensions.width == 320 && $0.pixelFormat == .yuv420FullRange })
        try session.setSessionPreset(.inputPriority)
        try camera.setActiveFormat(small)

        try session.startRunning()
        let dir = try TemporaryDirectory("capture-movie")
        let path = dir.path("clip.mov")
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<String, DaguerreError>?>(nil)
        try movie.startRecording(to: path) { result in
            outcome.mutate { $0 = result }
            done.signal()
        }
        #expect(movie.isRecording)
        #expect(throws: DaguerreError.self, "one recording at a time") { try movie.startRecording(to: dir.path("other.mov")) { _ in } }
        clock.advance(by: 0.995)
        movie.stopRecording()
        #expect(wait(done, "the recording"))
        session.stopRunning()

        #expect(try outcome.value?.get() == path)
        #expect(!movie.isRecording && movie.recordedFrameCount == 30)
        #expect(abs(movie.recordedDuration - 1) < 1e-9)
        #expect(dir.contents() == ["clip.mov"], "written atomically: no temporary file left, nothing at other.mov")

        let probe = try MovieProbe(path)
        #expect(probe.video?["codec_name"] as? String == "h264")
        #expect(probe.video?["width"] as? Int == 320 && probe.video?["height"] as? Int == 240)
        #expect(probe.video?["nb_frames"] as? String == "30")
        #expect(probe.video?["duration"] as? String == "1.000000")
        #expect(probe.video?["color_primaries"] as? String == "bt709")
        #expect(probe.video?["color_range"] as? String == "tv")
        let audio = try #require(probe.audio)
        #expect(audio["codec_name"] as? String == "pcm_s16le")
        #expect(audio["sample_rate"] as? String == "44100" && audio["channels"] as? Int == 1)
        #expect(audio["duration"] as? String == "1.000000")
        #expect(probe.format["format_name"] as? String == "mov,mp4,m4a,3gp,3g2,mj2")

        // The first frame is flat Y'CbCr (40, 100, 150) in full range. Converted to video range
        // before encoding, it decodes to about RGB (74, 35, 0); taken as video range unconverted,
        // red would come out near 67.
        let reader = try MovieReader(path: path)
        let first = try #require(try reader.decodeFrames(track: reader.tracks[0].id, range: 0..<1).first)
        let (r, g) = first.withUnsafeBytes { raw -> (Int, Int) in
            let offset = (first.height / 2) * first.bytesPerRow + (first.width / 2) * 4
            return (Int(raw[offset]), Int(raw[offset + 1]))
        }
        #expect(abs(r - 74) <= 3 && abs(g - 35) <= 3, "decoded centre pixel r \(r) g \(g)")
    }

    @Test("Stopping before any frame arrives reports an error to the delegate and leaves no file")
    func noFrames() throws {
        let session = CaptureSession(clock: VirtualClock())
        let movie = MovieFileOutput()
        try session.addInput(input(FakeCamera.small()))
        try session.addOutput(movie)
        #expect(throws: DaguerreError.self, "not running yet") { try movie.startRecording(to: "/tmp/never.mov") { _ in } }
        try session.startRunning()
        let dir = try TemporaryDirectory("capture-movie-empty")
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<String, DaguerreError>?>(nil)
        try movie.startRecording(to: dir.path("empty.mov")) { result in
            outcome.mutate { $0 = result }
            done.signal()
        }
        session.stopRunning()  // finishes the recording
        #expect(wait(done, "the empty recording"))
        guard case .failure(let error)? = outcome.value else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message.contains("no frame was appended"))
        #expect(dir.contents().isEmpty)
    }

    @Test("A destination in a missing directory fails at startRecording with .io")
    func unwritableDestination() throws {
        let session = CaptureSession(clock: VirtualClock())
        let movie = MovieFileOutput()
        try session.addInput(input(FakeCamera.small()))
        try session.addOutput(movie)
        try session.startRunning()
        defer { session.stopRunning() }
        do throws(DaguerreError) {
            try movie.startRecording(to: "/nonexistent-dir/clip.mov") { _ in }
            Issue.record("must throw")
        } catch {
            guard case .io = error else {
                Issue.record("expected .io, got \(error)")
                return
            }
        }
        #expect(!movie.isRecording)
    }
}
