import DaguerreCore
import DaguerreFormats
// Records the session's video (and microphone audio) to a QuickTime movie through the formats
// layer's MovieRecorder: H.264 video, 16-bit PCM audio, written atomically (SPEC C2
// MovieFileOutput; W3/W4 for the colour the movie is tagged with).
import DaguerreMovie
import Dispatch
import Synchronization

/// Hears when a ``MovieFileOutput`` starts and finishes a file
/// (AVCaptureFileOutputRecordingDelegate). Called on the output's recording queue.
/// ``fileOutput(_:didStartRecordingTo:from:)`` has a default that does nothing.
///
/// ```swift
/// final class Recorder: MovieFileOutputRecordingDelegate {
///     func fileOutput(_ output: MovieFileOutput, didFinishRecordingTo path: String,
///                     from connections: [CaptureConnection], error: DaguerreError?) {
///         if let error { print(error.message) } else { print("movie at", path) }
///     }
/// }
/// ```
public protocol MovieFileOutputRecordingDelegate: AnyObject, Sendable {
    func fileOutput(_ output: MovieFileOutput, didStartRecordingTo path: String, from connections: [CaptureConnection])
    func fileOutput(
        _ output: MovieFileOutput, didFinishRecordingTo path: String, from connections: [CaptureConnection], error: DaguerreError?)
}

extension MovieFileOutputRecordingDelegate {
    public func fileOutput(_ output: MovieFileOutput, didStartRecordingTo path: String, from connections: [CaptureConnection]) {}
}

/// Records QuickTime movies (AVCaptureMovieFileOutput): H.264 video from the camera and, when
/// a microphone input is connected, 16-bit PCM audio, through `MovieRecorder`. The file appears
/// at its path only when finished (`MovieRecorder` writes atomically); a failed recording leaves
/// nothing there.
///
/// - The movie takes the camera's active format size and frame rate when recording starts, and
///   its colour space: sRGB movies are tagged BT.709, Display P3 movies P3 (W4; the automatic
///   rule W3 keeps cameras sRGB while a movie output is present). `MovieRecorder` converts
///   full-range (420f) and BGRA frames to the movie's video-range Y'CbCr; Bayer formats cannot
///   be recorded.
/// - Time zero is the first video frame after ``startRecording(to:recordingDelegate:)``; audio
///   is aligned to it (earlier samples trimmed, gaps filled with silence).
/// - Frames wait for the encoder on the output's queue; beyond ``maximumPendingSampleCount``
///   waiting samples, new ones are dropped and counted in ``droppedSampleCount``.
/// - Stopping the session finishes the recording. A change of frame size or colour space
///   mid-recording (a pipeline rebuild) finishes it with an error.
/// - A Live Photo–enabled ``PhotoOutput`` and a movie output cannot share a session (L5).
///
/// ```swift
/// let movieOutput = MovieFileOutput()
/// try session.addOutput(movieOutput)
/// try session.startRunning()
/// try movieOutput.startRecording(to: "/tmp/clip.mov") { result in
///     print(result)          // .success("/tmp/clip.mov") once the file is written
/// }
/// // ...
/// movieOutput.stopRecording()
/// ```
public final class MovieFileOutput: CaptureOutput, @unchecked Sendable {
    private struct State: Sendable {
        var job: MovieRecordingJob?
        var accepting = false
        var pending = 0
        var dropped = 0
        var videoBitRate: Int?
        var maximumPendingSampleCount = 240
        var recordedFrames = 0
        var recordedDuration = 0.0
    }

    private let state = Mutex(State())

    public init() {
        super.init(role: .movieFile, acceptedMediaTypes: [.video, .audio])
    }

    /// Video bit rate in bits per second; nil (the default) chooses 0.15 bit per pixel per
    /// frame, at least 250 kbit/s (about 9 Mbit/s for 1080p at 30 fps).
    public var videoBitRate: Int? {
        get { state.withLock { $0.videoBitRate } }
        set { state.withLock { $0.videoBitRate = newValue.map { max(1, $0) } } }
    }

    /// Samples allowed to wait for the encoder before new ones are dropped (default 240).
    public var maximumPendingSampleCount: Int {
        get { state.withLock { $0.maximumPendingSampleCount } }
        set { state.withLock { $0.maximumPendingSampleCount = max(1, newValue) } }
    }

    /// True from ``startRecording(to:recordingDelegate:)`` until the file is finished.
    public var isRecording: Bool { state.withLock { $0.job != nil } }
    /// Where the current recording goes.
    public var outputPath: String? { state.withLock { $0.job?.path } }
    /// Video frames written to the current (or last) recording.
    public var recordedFrameCount: Int { state.withLock { $0.recordedFrames } }
    /// Seconds of video in the current (or last) recording.
    public var recordedDuration: Double { state.withLock { $0.recordedDuration } }
    /// Samples dropped because the encoder fell behind, since the output was made.
    public var droppedSampleCount: Int { state.withLock { $0.dropped } }

    /// Starts recording to `path` (a .mov). Throws when the session is not running, no camera
    /// is connected, the camera streams a Bayer format, a recording is already in progress, or
    /// the file cannot be created (`.io`). Later failures go to the delegate, which is kept
    /// until the recording finishes.
    public func startRecording(to path: String, recordingDelegate: any MovieFileOutputRecordingDelegate) throws(DaguerreError) {
        guard let session, session.isRunning else {
            throw .captureConfiguration(
                problem: "MovieFileOutput.startRecording was called while the output is not in a running session",
                fix: "Add the output to a session with a camera input and call startRunning() first.")
        }
        guard let video = connection(with: .video), video.isEnabled else {
            throw .captureConfiguration(
                problem: "the MovieFileOutput has no enabled video connection",
                fix: "Add a camera input to the session (and keep its connection to this output enabled).")
        }
        let camera = video.inputPort.input.device
        let format = camera.activeFormat
        guard let pixelFormat = format.pixelFormat, !pixelFormat.isBayer else {
            throw .captureConfiguration(
                problem: "the camera streams \(format.pixelFormat?.fourCC ?? "no video"), which a movie cannot record",
                fix: "Make a 420f, 420v or BGRA format active (any session preset but inputPriority chooses one).")
        }
        var audio: MovieSettings.Audio?
        if let mic = connection(with: .audio), mic.isEnabled, let af = mic.inputPort.input.device.activeFormat.audioFormat {
            guard af.channels <= 2 else {
                throw .captureConfiguration(
                    problem: "the microphone delivers \(af.channels) channels and movies record mono or stereo",
                    fix: "Choose a mono or stereo format on the audio device, or disable its connection to the movie output.")
            }
            audio = MovieSettings.Audio(sampleRate: af.sampleRate, channels: af.channels)
        }
        let size = format.dimensions
        let frameRate = Int(max(1, format.frameRateRange.maxFrameRate.rounded()))
        let colorSpace = camera.activeColorSpace
        let connections = self.connections
        let delegate = recordingDelegate
        try state.withLock { (s) throws(DaguerreError) in
            if let job = s.job {
                throw .captureConfiguration(
                    problem: "a recording to \(job.path) is still in progress",
                    fix: "Call stopRecording() and wait for the delegate's didFinishRecording before starting another.")
            }
            let automaticRate = max(250_000, Int(0.15 * Double(size.pixelCount) * Double(frameRate)))
            let settings = MovieSettings(
                width: size.width, height: size.height, frameRate: frameRate,
                bitRate: s.videoBitRate ?? automaticRate, colorSpace: colorSpace.colorSpace, audio: audio)
            let recorder = try MovieRecorder(destination: path, settings: settings)
            s.job = MovieRecordingJob(path: path, recorder: recorder, colorSpace: colorSpace, delegate: delegate, connections: connections)
            s.accepting = true
            s.pending = 0
            s.recordedFrames = 0
            s.recordedDuration = 0
        }
        guard let job = state.withLock({ $0.job }) else { return }
        job.queue.async { delegate.fileOutput(self, didStartRecordingTo: path, from: connections) }
    }

    /// ``startRecording(to:recordingDelegate:)`` with a closure, called with the path once the
    /// file is written or with the error.
    public func startRecording(to path: String, completion: @escaping @Sendable (Result<String, DaguerreError>) -> Void)
        throws(DaguerreError)
    {
        try startRecording(to: path, recordingDelegate: CompletionDelegate(completion: completion))
    }

    /// Stops taking samples and finishes the file on the recording queue; the delegate hears
    /// when it is written. Does nothing when not recording.
    public func stopRecording() {
        let job: MovieRecordingJob? = state.withLock { s in
            guard let job = s.job, s.accepting else { return nil }
            s.accepting = false
            return job
        }
        guard let job else { return }
        job.queue.async { self.finish(job, error: nil) }
    }

    override func deliver(frame: SampleBuffer, from connection: CaptureConnection) {
        guard let job = admit() else { return }
        job.queue.async {
            do throws(DaguerreError) {
                if let stats = try job.append(frame: frame) {
                    self.state.withLock {
                        $0.recordedFrames = stats.frames
                        $0.recordedDuration = stats.duration
                    }
                }
                self.state.withLock { $0.pending -= 1 }
            } catch {
                self.state.withLock {
                    $0.pending -= 1
                    $0.accepting = false
                }
                self.finish(job, error: error)
            }
        }
    }

    override func deliver(audio: CaptureAudioBuffer, from connection: CaptureConnection) {
        guard let job = admit() else { return }
        job.queue.async {
            do throws(DaguerreError) {
                try job.append(audio: audio)
                self.state.withLock { $0.pending -= 1 }
            } catch {
                self.state.withLock {
                    $0.pending -= 1
                    $0.accepting = false
                }
                self.finish(job, error: error)
            }
        }
    }

    override func sessionDidStopRunning() { stopRecording() }

    /// The job to give a sample to, or nil (not recording, or too many samples waiting).
    private func admit() -> MovieRecordingJob? {
        state.withLock { s in
            guard let job = s.job, s.accepting else { return nil }
            guard s.pending < s.maximumPendingSampleCount else {
                s.dropped += 1
                return nil
            }
            s.pending += 1
            return job
        }
    }

    /// On the job's queue: writes (or, after an error, discards) the file and tells the delegate.
    private func finish(_ job: MovieRecordingJob, error: DaguerreError?) {
        guard let outcome = job.finish(error: error) else { return }
        state.withLock { s in
            if s.job === job {
                s.job = nil
                s.accepting = false
            }
        }
        job.delegate.fileOutput(self, didFinishRecordingTo: job.path, from: job.connections, error: outcome.error)
    }
}

private final class CompletionDelegate: MovieFileOutputRecordingDelegate {
    let completion: @Sendable (Result<String, DaguerreError>) -> Void
    init(completion: @escaping @Sendable (Result<String, DaguerreError>) -> Void) { self.completion = completion }
    func fileOutput(
        _ output: MovieFileOutput, didFinishRecordingTo path: String, from connections: [CaptureConnection], error: DaguerreError?
    ) {
        completion(error.map { .failure($0) } ?? .success(path))
    }
}
