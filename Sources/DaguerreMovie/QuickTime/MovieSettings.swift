// What a MovieRecorder records: video size, rate and colour, audio, metadata, Live Photo fields.
import DaguerreCore
import DaguerreFormats
import Foundation

/// Settings of a ``MovieRecorder``: the video and audio formats and what the Live Photo movie
/// carries besides samples.
///
/// The defaults are a Live Photo movie's (SPEC L2): H.264 1440×1080 at 15 fps and about
/// 7 Mbit/s, sRGB (BT.709 tags), encoded by x264; ``encoder`` chooses OpenH264 instead when the
/// program must not carry GPL code, and ``videoCodec`` `.hevc` records HEVC (`hvc1`, x265) as
/// iPhones do since iOS 11. Set ``colorSpace`` to Display P3 for wide colour (W5).
/// ``audio`` adds 16-bit PCM at 44.1 kHz, mono or stereo (L2). ``contentIdentifier`` is the
/// UUID string the still's MakerNote also carries (L3); ``stillImageTime`` adds the timed
/// metadata track with one sample at that movie time (L4); ``metadata`` holds the caller's
/// items, such as author and location (L6).
///
/// ```swift
/// let settings = MovieSettings(audio: .init(channels: 1),
///                              metadata: [MetadataItem(key: .author, value: "Ansel")],
///                              contentIdentifier: UUID().uuidString,
///                              stillImageTime: MediaTime(seconds: 1.5))
/// ```
public struct MovieSettings: Sendable, Hashable {
    /// PCM audio of the movie.
    public struct Audio: Sendable, Hashable {
        public var sampleRate: Int
        /// 1 (mono) or 2 (stereo); samples are interleaved.
        public var channels: Int
        public init(sampleRate: Int = 44_100, channels: Int = 1) {
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    public var width: Int
    public var height: Int
    public var frameRate: Int
    /// Average video bit rate, bits per second.
    public var bitRate: Int
    /// The colour space of the frames: Display P3 tags the movie P3 (W5), anything else BT.709.
    public var colorSpace: ColorSpace
    public var audio: Audio?
    /// Movie-level metadata items ('mdta' keys), written after the content identifier.
    public var metadata: [MetadataItem]
    /// The Live Photo content identifier (a UUID string), written as
    /// `com.apple.quicktime.content.identifier`.
    public var contentIdentifier: String?
    /// The still's time in the movie: adds the still-image-time timed metadata track.
    public var stillImageTime: MediaTime?
    /// The video codec: H.264 (the default) or HEVC (encoded by x265, GPL-2 or later).
    public var videoCodec: VideoCodec
    /// The H.264 encoder: x264 (GPL-2, the default) or OpenH264 (BSD-2); the choice decides the
    /// licence of a program that records (``H264EncoderChoice``). Not used for HEVC.
    public var encoder: H264EncoderChoice
    /// The x264 or x265 preset (speed against compression; both use the same names):
    /// `ultrafast` by default, which records the L2 movie in well under 1.5 s on two shared cores
    /// with x264; `superfast` compresses better when the CPU is free (see ``X264Encoder``).
    /// OpenH264 has no presets and ignores it.
    public var encoderPreset: String
    /// Encoder threads (0: the library chooses); OpenH264 cuts each frame into this many slices.
    public var encoderThreads: Int
    /// The creation time written in the movie's headers (nil: now). A fixed date makes the same
    /// frames give the same file, byte for byte (an edit resumed from its adjustment data).
    public var creationDate: Date?
    /// Ticks per second of the video track: 600, Apple's, by default. An edited movie keeps its
    /// original's (a Samsung movie's 90 000), so its frames' uneven times stay exact instead of
    /// rounding to 1/600 s, where readers that infer a frame rate from them stumble.
    public var videoTimescale: Int32 = 600
    /// The video timescales a recording accepts.
    public static let videoTimescales: ClosedRange<Int32> = 1...1_000_000
    /// The video track's display matrix: frames are encoded as given (width × height) and players
    /// turn them as this says, as iPhones record portrait movies
    /// (`try TrackTransform(rotation: 90, width: 1440, height: 1080)`).
    public var transform: TrackTransform

    public init(
        width: Int = 1440, height: Int = 1080, frameRate: Int = 15, bitRate: Int = 7_000_000,
        colorSpace: ColorSpace = .sRGB, audio: Audio? = nil, metadata: [MetadataItem] = [],
        contentIdentifier: String? = nil, stillImageTime: MediaTime? = nil,
        videoCodec: VideoCodec = .h264, encoder: H264EncoderChoice = .x264, encoderPreset: String = "ultrafast", encoderThreads: Int = 2,
        transform: TrackTransform = .identity
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.bitRate = bitRate
        self.colorSpace = colorSpace
        self.audio = audio
        self.metadata = metadata
        self.contentIdentifier = contentIdentifier
        self.stillImageTime = stillImageTime
        self.videoCodec = videoCodec
        self.encoder = encoder
        self.encoderPreset = encoderPreset
        self.encoderThreads = encoderThreads
        self.transform = transform
    }

    /// The `colr` / VUI tags these settings give.
    public var colorProperties: VideoColorProperties { VideoColorProperties(colorSpace: colorSpace) }
}
