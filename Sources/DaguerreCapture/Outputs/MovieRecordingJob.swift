import DaguerreCore
import DaguerreFormats
// One MovieFileOutput recording: frame timing, audio alignment and the MovieRecorder, kept on
// one serial queue because MovieRecorder is not thread-safe (SPEC C2 MovieFileOutput).
import DaguerreMovie
import Dispatch

/// A recording in progress. Sendable by confinement: `path`, `colorSpace`, `delegate`,
/// `connections` and `queue` are immutable; everything else, the recorder included, is touched
/// only on `queue` (the output dispatches every call there).
final class MovieRecordingJob: @unchecked Sendable {
    struct Outcome { let error: DaguerreError? }

    let path: String
    let colorSpace: CaptureColorSpace
    let delegate: any MovieFileOutputRecordingDelegate
    let connections: [CaptureConnection]
    let queue = DispatchQueue(label: "daguerre.capture.movie-recording", qos: .userInitiated)

    private let recorder: MovieRecorder
    private var firstTime: Double?
    private var lastTicks: Int64 = -1
    private var frames = 0
    private var audioCursor: Int64 = 0
    private var earlyAudio: [CaptureAudioBuffer] = []
    private var done = false

    init(
        path: String, recorder: MovieRecorder, colorSpace: CaptureColorSpace,
        delegate: any MovieFileOutputRecordingDelegate, connections: [CaptureConnection]
    ) {
        self.path = path
        self.recorder = recorder
        self.colorSpace = colorSpace
        self.delegate = delegate
        self.connections = connections
    }

    /// Encodes a frame; returns the frame count and duration so far, or nil if the frame was
    /// skipped (its time rounds onto the previous frame's tick).
    func append(frame: SampleBuffer) throws(DaguerreError) -> (frames: Int, duration: Double)? {
        guard !done else { return nil }
        let settings = recorder.settings
        guard frame.width == settings.width, frame.height == settings.height else {
            throw .captureConfiguration(
                problem:
                    "the camera's frames changed from \(settings.width)×\(settings.height) to \(frame.width)×\(frame.height) during the recording",
                fix:
                    "Keep the session's preset and the camera's format unchanged while recording; start a new recording after changing them."
            )
        }
        guard frame.captureColorSpace == colorSpace else {
            throw .captureConfiguration(
                problem:
                    "the camera's colour space changed from \(colorSpace) to \(frame.captureColorSpace?.description ?? "another space") during the recording",
                fix: "Keep the session's outputs and the camera's colour space unchanged while recording.")
        }
        let start = firstTime ?? frame.metadata.timestamp
        let ticks = Int64(((frame.metadata.timestamp - start) * 600).rounded())
        guard ticks > lastTicks else { return nil }
        let time = MediaTime(value: ticks, timescale: 600)
        switch frame.content {
        case .yCbCr420(let buffer): try recorder.append(frame: buffer, at: time)  // 420f becomes video range there
        case .pixels(let buffer): try recorder.append(frame: buffer, at: time)
        case .bayer, .jpeg:
            throw .captureConfiguration(
                problem: "the camera switched to a Bayer or compressed format during the recording",
                fix: "Movies record 420v, 420f or BGRA; keep such a format active while recording.")
        }
        lastTicks = ticks
        frames += 1
        if firstTime == nil {
            firstTime = start
            let early = earlyAudio
            earlyAudio = []
            for buffer in early { try append(audio: buffer) }
        }
        return (frames, Double(ticks) / 600 + 1 / Double(max(1, settings.frameRate)))
    }

    /// Appends microphone samples aligned to the first frame's time: samples before it are
    /// trimmed, samples that overlap what is written are skipped, gaps become silence.
    func append(audio buffer: CaptureAudioBuffer) throws(DaguerreError) {
        guard !done, let audio = recorder.settings.audio else { return }
        guard let start = firstTime else {
            // Kept until the first frame fixes time zero (a second's worth at most).
            if earlyAudio.count < 100 {
                earlyAudio.append(buffer)
            } else {
                earlyAudio.removeFirst()
                earlyAudio.append(buffer)
            }
            return
        }
        guard buffer.sampleRate == audio.sampleRate, buffer.channels == audio.channels else {
            throw .captureConfiguration(
                problem:
                    "the microphone's audio changed to \(buffer.sampleRate) Hz, \(buffer.channels) channels during the recording (it started at \(audio.sampleRate) Hz, \(audio.channels))",
                fix: "Keep the audio device's format unchanged while recording.")
        }
        let channels = Int64(audio.channels)
        var first = Int64(((buffer.timestamp - start) * Double(audio.sampleRate)).rounded())
        var samples = buffer.samples[...]
        if first < audioCursor {
            let skip = audioCursor - first
            guard skip < Int64(buffer.frameCount) else { return }
            samples = samples.dropFirst(Int(skip * channels))
            first = audioCursor
        }
        var gap = first - audioCursor
        while gap > 0 {
            let chunk = min(gap, Int64(audio.sampleRate))
            try recorder.append(audio: [Int16](repeating: 0, count: Int(chunk * channels)))
            gap -= chunk
            audioCursor += chunk
        }
        try recorder.append(audio: Array(samples))
        audioCursor += Int64(samples.count) / channels
    }

    /// Finishes (or after `error`, cancels) the movie once; nil if already done.
    func finish(error: DaguerreError?) -> Outcome? {
        guard !done else { return nil }
        done = true
        if let error {
            recorder.cancel()
            return Outcome(error: error)
        }
        do {
            try recorder.finish()
            return Outcome(error: nil)
        } catch {
            return Outcome(error: error)
        }
    }
}
