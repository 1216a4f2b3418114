// The Live Photo side of the photo output (SPEC L1, L2, L8): a rolling buffer of the last
// 1.5 s of the stream's frames (15 a second) and of the microphone, each frame's motion
// measured once as it arrives; the movies in progress, which share the buffered frames; and
// suspension, which ends the movies in progress at that instant and starts the buffer clean
// afterwards. Everything runs on one serial queue; the device's thread only hands over.
import DaguerreCore
import DaguerreImage
import DaguerreMovie
import Dispatch
import Synchronization

/// Buffers the stream and records Live Photo movies. Sendable by confinement: the state below
/// the queue is touched only on `queue`.
final class LivePhotoRecorder: @unchecked Sendable {
    let queue = DispatchQueue(label: "daguerre.photo-output.live-photo")
    /// Frames handed over and not yet taken in (frames beyond a backlog are dropped, not queued).
    private let backlog = Atomic<Int>(0)
    static let maximumBacklog = 8

    private var frames: [BufferedFrame] = []
    private var audio: [CaptureAudioBuffer] = []
    private var jobs: [LivePhotoMovieJob] = []
    private var previous: FrameSignature?
    private var position = SIMD2<Double>.zero
    private var epoch = 0
    private var suspended = false
    private var context: Context?

    /// Seconds kept beyond the 1.5 s a movie reaches back.
    private static let slack = 0.3

    /// A frame of the stream (on the device's thread), seen at `sceneTime`.
    func take(_ frame: SampleBuffer, sceneTime: Double) {
        guard backlog.add(1, ordering: .relaxed).newValue <= Self.maximumBacklog else {
            backlog.subtract(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            backlog.subtract(1, ordering: .relaxed)
            intake(frame, sceneTime: sceneTime)
        }
    }

    /// Microphone samples (on the device's thread).
    func take(_ buffer: CaptureAudioBuffer) {
        queue.async { [self] in
            guard !suspended else { return }
            audio.append(buffer)
            let horizon = (audio.last?.timestamp ?? 0) - LivePhotoMovieFormat.span - Self.slack
            audio.removeAll { $0.timestamp + $0.duration < horizon }
            for job in jobs { job.add(buffer) }
        }
    }

    private func intake(_ frame: SampleBuffer, sceneTime: Double) {
        guard !suspended else { return }
        let pixels: PlanarYCbCr420Buffer
        switch frame.content {
        case .yCbCr420(let buffer): pixels = buffer
        case .pixels(let buffer):
            guard let converted = try? YCbCrConversion.makeYCbCr420(from: buffer, fullRange: true) else { return }
            pixels = converted
        case .bayer, .jpeg: return
        }
        // 15 frames a second, whatever the stream's rate.
        let interval = 1 / Double(LivePhotoMovieFormat.frameRate)
        if let last = frames.last, sceneTime - last.sceneTime < 0.75 * interval { return }
        let signature = FrameSignature(luma: pixels.luma, width: pixels.width, height: pixels.height)
        var motion = SIMD2<Double>.zero
        if let previous, previous.width == signature.width, previous.height == signature.height {
            motion = signature.motion(since: previous)
        } else if previous != nil {
            epoch += 1  // a new size: a clean start
            position = .zero
        }
        position += motion
        previous = signature
        let buffered = BufferedFrame(
            pixels: pixels, sceneTime: sceneTime, position: position, motion: motion,
            interval: frames.last.map { sceneTime - $0.sceneTime } ?? interval, meanLevel: signature.meanLevel, epoch: epoch)
        frames.append(buffered)
        frames.removeAll { $0.sceneTime < sceneTime - LivePhotoMovieFormat.span - Self.slack }
        for job in jobs { job.add(buffered) }
        pumpJobs()
    }

    /// Starts a movie for a photo asked for now; frames already buffered from 1.5 s before the
    /// request on are its first.
    func start(_ job: LivePhotoMovieJob) {
        queue.async { [self] in
            for frame in frames { job.add(frame) }
            for buffer in audio { job.add(buffer) }
            jobs.append(job)
        }
    }

    /// The still's time for `job`, once known.
    func setStillTime(_ time: Double, for job: LivePhotoMovieJob) {
        queue.async { [self] in
            job.setStillTime(time)
            pumpJobs()
        }
    }

    /// Suspends (L8): movies in progress end at `time`; nothing is buffered until resumed.
    func suspend(at time: Double) {
        queue.async { [self] in
            suspended = true
            for job in jobs { job.close(at: time) }
            clear()
            pumpJobs()
        }
    }

    /// Resumes with a clean start: nothing from before appears in a later movie.
    func resume() {
        queue.async { [self] in
            clear()
            suspended = false
        }
    }

    /// The session stopped: movies end with the frames they have. (Called with the session's
    /// lock held: it must not ask the session anything, not even its clock.)
    func streamEnded() {
        queue.async { [self] in
            for job in jobs { job.close(at: .infinity) }
            clear()
            pumpJobs()
        }
    }

    private func clear() {
        frames = []
        audio = []
        previous = nil
        position = .zero
        epoch += 1
    }

    private func pumpJobs() {
        guard !jobs.isEmpty else { return }
        do throws(DaguerreError) {
            if context == nil { context = try Context(options: .init(workingColorSpace: nil, cacheIntermediates: false)) }
        } catch {
            for job in jobs { job.close(at: -.infinity) }
        }
        guard let context else { return }
        for job in jobs { job.pump(context: context) }
        jobs.removeAll { $0.isDone }
    }
}
