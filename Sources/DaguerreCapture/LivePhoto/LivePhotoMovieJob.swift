// One Live Photo movie in the making (SPEC L1–L4, L6, L8–L10, W5): the buffered frames from
// 1.5 s before the still to 1.5 s after it, trimmed, stabilized, cropped (scaled by the engine
// only when the camera streamed larger frames), and encoded while the rest arrive, so that the file is finished a few frames after
// the last one. Confined to the Live Photo recorder's queue.
import DaguerreCore
import DaguerreImage
import DaguerreMovie
import Foundation

/// What a Live Photo movie is asked to be.
struct LivePhotoMovieRequest: Sendable {
    let path: String
    let format: LivePhotoMovieFormat
    /// When the photo was asked for, on the session's clock (frames from 1.5 s before it are held).
    let requestTime: Double
    let autoTrim: Bool
    let stabilize: Bool
    /// The movie's format, audio, content identifier and metadata items (the still's time is set
    /// when it starts).
    let encoder: MovieSettings
    /// Given each frame as it is encoded, for measurement only (PhotoOutput's observer).
    var frameObserver: (@Sendable (PixelBuffer) -> Void)? = nil
}

/// A finished movie: its length and the still's time in it, in seconds.
struct LivePhotoMovieResult: Sendable {
    let duration: Double
    let photoDisplayTime: Double
}

/// The callbacks a movie job makes (on the recorder's queue).
struct LivePhotoMovieEvents: Sendable {
    /// Every sample is collected (L7's didFinishRecordingLivePhotoMovie).
    let recorded: @Sendable () -> Void
    /// The file is written, or failed (L7's didFinishProcessingLivePhotoToMovieFile).
    let finished: @Sendable (Result<LivePhotoMovieResult, DaguerreError>) -> Void
}

/// Sendable by confinement: after it is made, a job is used only on the Live Photo recorder's queue.
final class LivePhotoMovieJob: @unchecked Sendable {
    let request: LivePhotoMovieRequest
    private let events: LivePhotoMovieEvents
    private let trim: LivePhotoTrim
    private var frames: [BufferedFrame] = []
    private var audio: [CaptureAudioBuffer] = []
    private var stillTime: Double?
    private var stillIndex: Int?
    /// The first frame kept, and the end (exclusive) once known.
    private var first = 0
    private var end: Int?
    private var rendered = 0
    private var movie: MovieRecorder?
    private var startTime = 0.0
    /// Frames seen at or after this time are not the movie's (a suspension, the session stopping).
    private var closedAt = Double.infinity
    private var closed = false
    private var recordedSent = false
    private(set) var isDone = false

    init(request: LivePhotoMovieRequest, events: LivePhotoMovieEvents) {
        self.request = request
        self.events = events
        trim = LivePhotoTrim()
    }

    private var frameInterval: Double { 1 / Double(LivePhotoMovieFormat.frameRate) }
    private var earliest: Double { (stillTime ?? request.requestTime) - LivePhotoMovieFormat.span - frameInterval / 2 }
    private var latest: Double { (stillTime.map { $0 + LivePhotoMovieFormat.span } ?? .infinity) + frameInterval / 2 }

    /// A frame of the buffer (the ones already kept when the job starts, then each new one).
    func add(_ frame: BufferedFrame) {
        guard !isDone, !closed else { return }
        guard frame.sceneTime < closedAt else { return close(at: closedAt) }
        guard frame.sceneTime >= earliest else { return }
        guard frame.sceneTime < latest else {
            closed = true  // the movie's last frame has been seen
            return
        }
        if let last = frames.last, last.epoch != frame.epoch { frames.removeAll() }
        frames.append(frame)
        // The next frame would be past the end: this is the movie's last.
        if stillTime != nil, frame.sceneTime + frameInterval >= latest { closed = true }
    }

    func add(_ buffer: CaptureAudioBuffer) {
        guard !isDone, !closed else { return }
        audio.append(buffer)
    }

    /// The still's time, known once the capture stage has chosen or exposed it.
    func setStillTime(_ time: Double) {
        stillTime = time
        frames.removeAll { $0.sceneTime < earliest || $0.sceneTime >= latest }
        if let last = frames.last, last.sceneTime + frameInterval >= latest { closed = true }
    }

    /// No frame from `time` on belongs to the movie (suspension, L8; the session stopping).
    func close(at time: Double) {
        closedAt = min(closedAt, time)
        frames.removeAll { $0.sceneTime >= closedAt }
        audio.removeAll { $0.timestamp >= closedAt }
        closed = true
    }

    /// Does what the frames so far allow: start the movie, render and encode the frames whose
    /// look-ahead has arrived, and finish when every frame is in.
    func pump(context: Context) {
        guard !isDone, let stillTime else { return }
        do throws(DaguerreError) {
            if stillIndex == nil {
                // The still's frame is the one nearest its time; wait until a later one is seen.
                guard closed || (frames.last.map { $0.sceneTime >= stillTime } ?? false) else { return }
                guard !frames.isEmpty else {
                    throw DaguerreError.captureConfiguration(
                        problem:
                            "no video frame reached the Live Photo buffer around the still (the session stopped or Live Photo capture was suspended)",
                        fix: "Keep the session running, with Live Photo capture not suspended, for 1.5 s after the shutter.")
                }
                let index = frames.indices.min { abs(frames[$0].sceneTime - stillTime) < abs(frames[$1].sceneTime - stillTime) }!
                stillIndex = index
                first = request.autoTrim ? trim.start(frames, still: index) : 0
                rendered = first
                startTime = frames[first].sceneTime
                var settings = request.encoder
                settings.stillImageTime = MediaTime(seconds: max(0, stillTime - startTime))
                movie = try MovieRecorder(destination: request.path, settings: settings)
            }
            guard let still = stillIndex, let movie else { return }
            if request.autoTrim, let cut = trim.end(frames, still: still), cut < (end ?? .max) {
                end = max(cut, rendered)
                closed = true
            }
            if closed, end == nil { end = frames.count }
            if closed, !recordedSent {
                recordedSent = true
                events.recorded()
            }
            let stabilization = LivePhotoStabilization(sigmaFrames: request.stabilize ? 3 : 0, margin: margin)
            let limit = end ?? frames.count
            while rendered < limit, closed || rendered + stabilization.lookahead < frames.count {
                try render(rendered, into: movie, context: context, stabilization: stabilization, kept: first..<limit)
                rendered += 1
            }
            guard closed, rendered >= limit else { return }
            try writeAudio(to: movie, until: frames[limit - 1].sceneTime + frameInterval)
            let info = try movie.finish()
            isDone = true
            frames = []
            audio = []
            events.finished(
                .success(
                    LivePhotoMovieResult(
                        duration: info.duration.seconds, photoDisplayTime: info.stillImageTime?.seconds ?? stillTime - startTime)))
        } catch {
            movie?.cancel()
            isDone = true
            frames = []
            audio = []
            if !recordedSent {
                recordedSent = true
                events.recorded()
            }
            events.finished(.failure(error))
        }
    }

    /// How far the crop may move, in pixels of the buffered frames.
    private var margin: SIMD2<Double> {
        guard let f = frames.first else { return .zero }
        let share = Double(request.format.movieDimensions.width) / Double(request.format.bufferDimensions.width)
        return SIMD2(Double(f.pixels.width), Double(f.pixels.height)) * (1 - share) / 2
    }

    /// Crops frame `i` (stabilized) to the movie and encodes it. A frame at the buffer's size
    /// (the camera read it out for the movie) is cut from its planes at whole pixels, chroma at
    /// the nearest of its half-resolution samples, with no conversion; any other size (another
    /// output made the camera stream larger frames) is cropped and scaled by the engine.
    private func render(
        _ i: Int, into movie: MovieRecorder, context: Context, stabilization: LivePhotoStabilization, kept: Range<Int>
    ) throws(DaguerreError) {
        let frame = frames[i]
        let size = request.format.movieDimensions
        let buffer = request.format.bufferDimensions
        let pixels = SIMD2(Double(frame.pixels.width), Double(frame.pixels.height))
        let crop = pixels * (Double(size.width) / Double(buffer.width))
        let origin = (pixels - crop) / 2 + stabilization.offset(of: i, in: frames, kept: kept)
        let time = MediaTime(seconds: frame.sceneTime - startTime)
        if frame.pixels.width == buffer.width, frame.pixels.height == buffer.height {
            let cropped = try Self.crop(frame.pixels, x: Int(origin.x.rounded()), y: Int(origin.y.rounded()), to: size)
            try movie.append(frame: cropped, at: time)
            if let observe = request.frameObserver { observe(try YCbCrConversion.makeRGBA(from: cropped)) }
            return
        }
        let rgba = try YCbCrConversion.makeRGBA(from: frame.pixels)
        let scale = Double(size.width) / crop.x
        let image = Image(buffer: rgba).transformed(
            by: AffineTransform2D(a: scale, b: 0, c: 0, d: scale, tx: -origin.x * scale, ty: -origin.y * scale))
        var out = try PixelBuffer(width: size.width, height: size.height, format: .rgba8, colorSpace: nil)
        try context.render(
            image, to: &out, bounds: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)), colorSpace: nil)
        out.colorSpace = rgba.colorSpace
        try movie.append(frame: out, at: time)
        request.frameObserver?(out)
    }

    /// The `size` window of a 4:2:0 frame at (`x`, `y`) (clamped inside it), chroma from the
    /// nearest half-resolution sample.
    static func crop(_ frame: PlanarYCbCr420Buffer, x: Int, y: Int, to size: CaptureDimensions) throws(DaguerreError)
        -> PlanarYCbCr420Buffer
    {
        let x0 = min(max(0, x), frame.width - size.width)
        let y0 = min(max(0, y), frame.height - size.height)
        let cx = min((x0 + 1) / 2, (frame.width - size.width) / 2)
        let cy = min((y0 + 1) / 2, (frame.height - size.height) / 2)
        func window(_ plane: [UInt8], stride: Int, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: width * height)
            plane.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for row in 0..<height {
                        let from = src.baseAddress! + (y + row) * stride + x
                        (dst.baseAddress! + row * width).update(from: from, count: width)
                    }
                }
            }
            return out
        }
        let cw = frame.width / 2
        return try PlanarYCbCr420Buffer(
            width: size.width, height: size.height,
            luma: window(frame.luma, stride: frame.width, x: x0, y: y0, width: size.width, height: size.height),
            cb: window(frame.cb, stride: cw, x: cx, y: cy, width: size.width / 2, height: size.height / 2),
            cr: window(frame.cr, stride: cw, x: cx, y: cy, width: size.width / 2, height: size.height / 2),
            colorProperties: frame.colorProperties, fullRange: frame.fullRange)
    }

    /// The microphone's samples from the first frame's time to `endTime`, gaps filled with silence.
    private func writeAudio(to movie: MovieRecorder, until endTime: Double) throws(DaguerreError) {
        guard let format = request.encoder.audio else { return }
        let rate = Double(format.sampleRate)
        let channels = format.channels
        let count = max(0, Int(((endTime - startTime) * rate).rounded()))
        var samples = [Int16](repeating: 0, count: count * channels)
        for buffer in audio where buffer.sampleRate == format.sampleRate && buffer.channels == channels {
            let offset = Int(((buffer.timestamp - startTime) * rate).rounded())
            var usableEnd = min(buffer.frameCount, count - offset)
            if closedAt.isFinite { usableEnd = min(usableEnd, Int(((closedAt - buffer.timestamp) * rate).rounded(.down))) }
            let from = max(0, -offset)
            guard from < usableEnd else { continue }
            for k in from..<usableEnd {
                for c in 0..<channels { samples[(offset + k) * channels + c] = buffer.samples[k * channels + c] }
            }
        }
        if !samples.isEmpty { try movie.append(audio: samples) }
    }
}
