// What an H.264 encoder is asked for, whichever library encodes: size, rate, colour, threads.
import DaguerreCore
import DaguerreFormats

/// What to encode and how, for ``X264Encoder`` and ``OpenH264Encoder`` alike (SPEC L2: 1440×1080,
/// 15 fps, about 7 Mbit/s). ``preset`` is x264's alone; OpenH264 has no presets and ignores it.
///
/// ```swift
/// let settings = H264EncoderSettings(width: 1440, height: 1080, frameRate: 15, bitRate: 7_000_000)
/// let encoder = try OpenH264Encoder(settings: settings)
/// ```
public struct H264EncoderSettings: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var frameRate: Int
    /// Target average bit rate in bits per second.
    public var bitRate: Int
    public var colorProperties: VideoColorProperties
    /// An x264 preset name: ultrafast, superfast, veryfast, faster, fast, medium, …
    public var preset: String
    /// Encoder threads; 0 lets the library choose (x264: 1.5 × cores; OpenH264: one per core).
    public var threads: Int
    /// Longest distance between key frames, in frames (default: one second).
    public var keyFrameInterval: Int?
    /// Ticks per second of the presentation times given to `encode(_:presentationTime:)`.
    public var timescale: Int32

    public init(
        width: Int, height: Int, frameRate: Int = 15, bitRate: Int = 7_000_000,
        colorProperties: VideoColorProperties = .bt709, preset: String = "ultrafast", threads: Int = 2,
        keyFrameInterval: Int? = nil, timescale: Int32 = 600
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.bitRate = bitRate
        self.colorProperties = colorProperties
        self.preset = preset
        self.threads = threads
        self.keyFrameInterval = keyFrameInterval
        self.timescale = timescale
    }

    /// Frames between key frames: ``keyFrameInterval``, or one second of frames.
    var keyFrameDistance: Int { max(1, keyFrameInterval ?? frameRate) }

    /// Throws `.invalidArgument` for settings no encoder takes; `maxFrameRate` is the library's
    /// own limit.
    func validate(maxFrameRate: Int) throws(DaguerreError) {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0, width <= 16384, height <= 16384 else {
            throw .invalidArgument(
                what: "H.264 frame size \(width)×\(height)",
                problem: "width and height must be even and between 2 and 16384")
        }
        guard (1...maxFrameRate).contains(frameRate) else {
            throw .invalidArgument(what: "Frame rate \(frameRate)", problem: "must be between 1 and \(maxFrameRate) frames per second")
        }
        guard (10_000...400_000_000).contains(bitRate) else {
            throw .invalidArgument(what: "Bit rate \(bitRate)", problem: "must be between 10 kbit/s and 400 Mbit/s")
        }
        guard (0...64).contains(threads), timescale > 0 else {
            throw .invalidArgument(
                what: "H.264 encoder threads \(threads) / timescale \(timescale)",
                problem: "threads must be 0–64, timescale positive")
        }
    }
}
