// Records a QuickTime movie from raw frames and audio: H.264 (x264 or OpenH264) or HEVC (x265)
// encoding + Daguerre's MovieWriter.
import DaguerreCore
import DaguerreFormats

/// Records a movie file from pixel buffers and PCM audio: the MovieFileOutput / Live Photo movie
/// writer (SPEC L2–L4, L6, W5). It will be fed by the virtual camera.
///
/// Each frame is converted to Y'CbCr 4:2:0 (``YCbCrConversion``), encoded by the encoder the
/// settings choose (``MovieSettings/videoCodec``; for H.264, ``MovieSettings/encoder``:
/// ``X264Encoder`` or ``OpenH264Encoder``; for HEVC, ``HEVCEncoder``) and
/// streamed into the file by ``MovieWriter``; audio goes in as 16-bit PCM. ``finish()``
/// adds the still-image-time sample (L4) and the movie metadata (content identifier L3, the
/// caller's items L6) and renames the finished file into place; ``cancel()`` leaves nothing.
///
/// Times are movie times: the first frame is normally at zero (a later one leaves an empty
/// edit before the video); audio is contiguous from time zero; ``MovieSettings/stillImageTime``
/// is on the same timeline. Frame times must increase. Each frame lasts until the next one;
/// the last lasts one frame period.
///
/// Not thread-safe: feed it from one queue.
///
/// ```swift
/// let recorder = try MovieRecorder(destination: "/tmp/IMG_0001.mov",
///                                  settings: MovieSettings(audio: .init(), contentIdentifier: id,
///                                                          stillImageTime: MediaTime(seconds: 1.5)))
/// for (i, frame) in frames.enumerated() { try recorder.append(frame: frame, at: MediaTime(value: Int64(i) * 40, timescale: 600)) }
/// try recorder.append(audio: samples)
/// let info = try recorder.finish()
/// ```
public final class MovieRecorder {
    public let settings: MovieSettings
    /// Where the movie appears when finished.
    public let destination: String
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private let writer: MovieWriter
    private let encoder: any VideoEncoder
    private let videoTrack: MovieWriter.TrackID
    private let audioTrack: MovieWriter.TrackID?
    private let metadataTrack: MovieWriter.TrackID?
    private var scratch: PlanarYCbCr420Buffer
    private var pending: EncodedVideoSample?
    private var firstFrameTime: Int64?
    private var lastFrameTime: Int64?
    private var done = false

    /// Ticks per second of the video track (``MovieSettings/videoTimescale``).
    private let timescale: Int32

    /// Opens the destination (fails at once with `.io` if its directory is not writable) and
    /// sets up the encoder and tracks.
    public init(destination: String, settings: MovieSettings) throws(DaguerreError) {
        if let still = settings.stillImageTime, still.value < 0 {
            throw .invalidArgument(what: "Still image time \(still.seconds) s", problem: "must not be negative")
        }
        if let audio = settings.audio, !(1...2).contains(audio.channels) {
            throw .invalidArgument(what: "Audio with \(audio.channels) channels", problem: "Live Photo movies have mono or stereo audio")
        }
        guard MovieSettings.videoTimescales.contains(settings.videoTimescale) else {
            throw .invalidArgument(
                what: "Video timescale \(settings.videoTimescale)",
                problem:
                    "give \(MovieSettings.videoTimescales.lowerBound) to \(MovieSettings.videoTimescales.upperBound) ticks a second (600 is Apple's)"
            )
        }
        timescale = settings.videoTimescale
        self.settings = settings
        self.destination = destination
        let color = settings.colorProperties
        encoder = try settings.makeVideoEncoder(
            H264EncoderSettings(
                width: settings.width, height: settings.height, frameRate: settings.frameRate,
                bitRate: settings.bitRate, colorProperties: color, preset: settings.encoderPreset,
                threads: settings.encoderThreads, timescale: timescale))
        scratch = try PlanarYCbCr420Buffer(width: settings.width, height: settings.height, colorProperties: color)
        let writer = try MovieWriter(destination: destination, fileType: .quickTimeMovie)
        if let date = settings.creationDate { writer.creationDate = date }
        var videoFormat = VideoTrackFormat(
            width: settings.width, height: settings.height,
            decoderConfiguration: encoder.trackConfiguration,
            colorProperties: color, timescale: timescale)
        videoFormat.transform = settings.transform
        let video = try writer.addVideoTrack(videoFormat)
        // Track order as in iPhone Live Photo movies: video, audio, timed metadata.
        if let a = settings.audio {
            audioTrack = try writer.addAudioTrack(AudioTrackFormat(codec: .linearPCM16, sampleRate: a.sampleRate, channels: a.channels))
        } else {
            audioTrack = nil
        }
        metadataTrack =
            settings.stillImageTime == nil
            ? nil
            : try writer.addTimedMetadataTrack(.stillImageTime, describing: video)
        self.writer = writer
        videoTrack = video
    }

    deinit { if !done { writer.cancel() } }

    /// Encodes an RGBA8, BGRA8 or RGB8 frame shown at `time`. A frame tagged with a colour space
    /// whose primaries differ from the movie's is refused: the movie's tags would misdescribe it.
    public func append(frame: PixelBuffer, at time: MediaTime) throws(DaguerreError) {
        try checkOpen()
        guard frame.width == settings.width, frame.height == settings.height else {
            throw .invalidArgument(
                what: "Frame of \(frame.width)×\(frame.height)", problem: "the movie is \(settings.width)×\(settings.height)")
        }
        if let cs = frame.colorSpace, VideoColorProperties(colorSpace: cs).primaries != settings.colorProperties.primaries {
            throw .invalidArgument(
                what: "Frame in \(cs.name)",
                problem: "the movie was set up for \(settings.colorSpace.name); convert the frame or change MovieSettings.colorSpace")
        }
        let ticks = try frameTicks(time)
        try YCbCrConversion.convert(frame, into: &scratch)
        try submit(try encoder.encode(scratch, presentationTime: ticks))
    }

    /// Encodes a planar 4:2:0 frame shown at `time`, under the movie's colour tags. The movie is
    /// video range (what H.264 and HEVC players expect), so a full-range (420f) frame is converted first,
    /// in one pass into the recorder's scratch frame; a video-range frame goes to the encoder as is.
    public func append(frame: PlanarYCbCr420Buffer, at time: MediaTime) throws(DaguerreError) {
        try checkOpen()
        let ticks = try frameTicks(time)
        guard frame.fullRange else {
            try submit(try encoder.encode(frame, presentationTime: ticks))
            return
        }
        try YCbCrRange.convertToVideoRange(frame, into: &scratch)
        try submit(try encoder.encode(scratch, presentationTime: ticks))
    }

    /// Appends interleaved 16-bit PCM samples (a multiple of the channel count), contiguous with
    /// the audio before them.
    public func append(audio samples: [Int16]) throws(DaguerreError) {
        try checkOpen()
        guard let audioTrack else {
            throw .invalidArgument(what: "Audio samples", problem: "the movie settings have no audio; set MovieSettings.audio")
        }
        do { try writer.append(pcm: samples, to: audioTrack) } catch {
            cancel()
            throw error
        }
    }

    /// Finishes encoding, writes the still-image-time sample and the metadata, and moves the
    /// movie into place. The last frame lasts until `videoEnd` when that is after it (an edited
    /// movie keeps its original's length, whatever its frame rate), else one frame period of
    /// the settings' rate.
    @discardableResult
    public func finish(videoEnd: MediaTime? = nil) throws(DaguerreError) -> MovieFileInfo {
        try checkOpen()
        guard frameCount > 0 else {
            cancel()
            throw .invalidArgument(what: "Movie \(destination)", problem: "no frame was appended, so nothing was written")
        }
        do {
            try submit(try encoder.finish())
            if let pending {
                var duration = max(1, Int64(timescale) / Int64(max(1, settings.frameRate)))
                if let end = videoEnd?.converted(to: timescale).value, end > pending.presentationTime {
                    duration = end - pending.presentationTime
                }
                try writer.append(sample: pending.data, to: videoTrack, duration: duration, isSync: pending.isKeyFrame)
                self.pending = nil
            }
            if let first = firstFrameTime, first > 0 {
                try writer.setEdit(of: videoTrack, startTime: MediaTime(value: first, timescale: timescale))
            }
            if let metadataTrack, let still = settings.stillImageTime {
                // L4: the still-image-time item (value -1, int8) in one sample that starts at the
                // still's time and lasts one tick. An empty sample (no items) fills the track from
                // zero to that time, so that readers which ignore edit lists (exiftool's
                // SampleTime) still see the item at the still's time.
                let ticks = still.converted(to: TimedMetadataTrackFormat.stillImageTime.timescale).value
                if ticks > 0 { try writer.append(sample: [], to: metadataTrack, duration: ticks) }
                try writer.append(sample: TimedMetadataTrackFormat.sample([(1, [0xFF])]), to: metadataTrack, duration: 1)
            }
            var items: [MetadataItem] = []
            if let id = settings.contentIdentifier { items.append(MetadataItem(key: .contentIdentifier, value: id)) }
            items += settings.metadata.filter { $0.key != MetadataKey.contentIdentifier.rawValue || settings.contentIdentifier == nil }
            writer.metadata = items
            var info = try writer.finish()
            info.stillImageTime = settings.stillImageTime
            done = true
            return info
        } catch {
            cancel()
            throw error
        }
    }

    /// Stops recording; nothing is left at the destination.
    public func cancel() {
        guard !done else { return }
        done = true
        writer.cancel()
        encoder.close()
    }

    private func checkOpen() throws(DaguerreError) {
        guard !done else {
            throw .invalidArgument(what: "Movie recorder for \(destination)", problem: "it is already finished or cancelled")
        }
    }

    private func frameTicks(_ time: MediaTime) throws(DaguerreError) -> Int64 {
        let ticks = time.converted(to: timescale).value
        guard ticks >= 0 else { throw .invalidArgument(what: "Frame time \(time.seconds) s", problem: "must not be negative") }
        if let last = lastFrameTime, ticks <= last {
            throw .invalidArgument(
                what: "Frame time \(time.seconds) s",
                problem: "frame times must increase by at least one tick of the video timescale (1/\(timescale) s)")
        }
        if firstFrameTime == nil { firstFrameTime = ticks }
        lastFrameTime = ticks
        frameCount += 1
        return ticks
    }

    /// Writes encoded samples, each once the next one's time gives its duration.
    private func submit(_ samples: [EncodedVideoSample]) throws(DaguerreError) {
        do throws(DaguerreError) {
            for sample in samples {
                if let p = pending {
                    let duration = sample.decodeTime - p.decodeTime
                    guard duration > 0 else {
                        throw .processorFailed(
                            name: "\(encoder.libraryName) encoder",
                            reason: "decode times did not increase (\(p.decodeTime), \(sample.decodeTime))")
                    }
                    try writer.append(sample: p.data, to: videoTrack, duration: duration, isSync: p.isKeyFrame)
                }
                pending = sample
            }
        } catch {
            cancel()
            throw error
        }
    }
}
