// One way a device can capture: size, frame rates, pixel format, colour spaces, still size and
// exposure limits (SPEC C4, C5, W2). Devices list these; the session picks one per preset.
import DaguerreCore

/// Width and height in pixels (CMVideoDimensions).
///
/// ```swift
/// let hd = CaptureDimensions(width: 1920, height: 1080)
/// hd.pixelCount   // 2_073_600
/// ```
public struct CaptureDimensions: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)×\(height)" }
}

/// The frame rates a format can stream at, in frames per second.
///
/// ```swift
/// let range = try CaptureFrameRateRange(minFrameRate: 2, maxFrameRate: 30)
/// ```
public struct CaptureFrameRateRange: Sendable, Hashable, CustomStringConvertible {
    public let minFrameRate: Double
    public let maxFrameRate: Double

    /// Throws unless 0 < min ≤ max and both are finite.
    public init(minFrameRate: Double, maxFrameRate: Double) throws(DaguerreError) {
        guard minFrameRate.isFinite, maxFrameRate.isFinite, minFrameRate > 0, minFrameRate <= maxFrameRate else {
            throw .invalidArgument(
                what: "Frame rate range \(minFrameRate)...\(maxFrameRate) fps",
                problem: "rates must be finite, positive, and min must not exceed max")
        }
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
    }

    /// For constants known to satisfy the checks above.
    init(checkedMin minFrameRate: Double, max maxFrameRate: Double) {
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
    }

    public var description: String { "\(minFrameRate.formatted2)–\(maxFrameRate.formatted2) fps" }
}

/// What an audio device's format delivers: interleaved 16-bit PCM.
///
/// ```swift
/// let mic = try CaptureAudioFormat(sampleRate: 44_100, channels: 1)
/// ```
public struct CaptureAudioFormat: Sendable, Hashable, CustomStringConvertible {
    public let sampleRate: Int
    public let channels: Int

    /// Throws unless the rate is 8 000–192 000 Hz and there are 1–8 channels.
    public init(sampleRate: Int, channels: Int) throws(DaguerreError) {
        guard (8_000...192_000).contains(sampleRate) else {
            throw .invalidArgument(what: "Audio sample rate \(sampleRate) Hz", problem: "must be 8000...192000 Hz")
        }
        guard (1...8).contains(channels) else {
            throw .invalidArgument(what: "Audio with \(channels) channels", problem: "must have 1...8 channels")
        }
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "\(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")" }
}

/// One capture format of a device (AVCaptureDevice.Format): a resolution and frame-rate range in
/// one pixel format, the colour spaces it can stream in (W2), the size of the stills it can take
/// (C5), and its exposure limits. Audio devices have formats too, with ``audioFormat`` set and
/// no pixel format.
///
/// Formats are values: two formats are the same format when every field is equal, which is how
/// ``CaptureDevice/setActiveFormat(_:)`` checks membership.
///
/// The seeds' rule W2 is enforced here: a video-range ('420v') format supports sRGB only.
/// Every video format supports sRGB.
///
/// ```swift
/// // The seeds' front camera (C5): streams 1280×960, takes 5 MP stills when opted in.
/// let front = try CaptureDeviceFormat(width: 1280, height: 960, pixelFormat: .yuv420FullRange,
///                                     supportedColorSpaces: [.sRGB, .p3D65],
///                                     highResolutionStillDimensions: CaptureDimensions(width: 2576, height: 1932))
/// // Formats come in pairs (the 501 slides): one call makes the 420v and 420f twins.
/// let pair = try CaptureDeviceFormat.videoRangePair(width: 4032, height: 3024, wideColor: true)
/// ```
public struct CaptureDeviceFormat: Sendable, Hashable, CustomStringConvertible {
    public let mediaType: CaptureMediaType
    /// Streaming size; 0×0 for audio formats.
    public let dimensions: CaptureDimensions
    /// Nil for audio formats only.
    public let pixelFormat: PixelFormatType?
    public let frameRateRange: CaptureFrameRateRange
    /// The colour spaces the device can stream in with this format (W2). Always contains sRGB
    /// for video formats; `.p3D65` only for full-range and non-Y'CbCr formats.
    public let supportedColorSpaces: [CaptureColorSpace]
    /// The size of high-resolution stills, when larger than the streaming size (C5: the front
    /// camera streams 1280×960 and takes 5 MP stills once the photo output opts in).
    public let highResolutionStillDimensions: CaptureDimensions?
    /// Whether this is the format that gives the device's best still quality (the one the
    /// `photo` preset prefers among formats with the same still size).
    public let isHighestPhotoQualitySupported: Bool
    /// Smallest and largest ISO of custom exposures.
    public let isoRange: ClosedRange<Double>
    /// Shortest and longest exposure duration in seconds of custom exposures.
    public let exposureDurationRange: ClosedRange<Double>
    /// PCM layout of audio formats; nil for video.
    public let audioFormat: CaptureAudioFormat?

    /// A video format. Throws on sizes that are not positive (or not even for 4:2:0), ISO or
    /// duration ranges that are not positive, still dimensions smaller than the stream, and
    /// colour-space lists that break W2.
    public init(
        width: Int, height: Int, pixelFormat: PixelFormatType,
        frameRateRange: CaptureFrameRateRange? = nil,
        supportedColorSpaces: [CaptureColorSpace] = [.sRGB],
        highResolutionStillDimensions: CaptureDimensions? = nil,
        isHighestPhotoQualitySupported: Bool = false,
        isoRange: ClosedRange<Double> = 25...1600,
        exposureDurationRange: ClosedRange<Double> = (1.0 / 8000)...(1.0 / 3)
    ) throws(DaguerreError) {
        let what = "Capture format \(width)×\(height) \(pixelFormat.fourCC)"
        try Limits.default.check(width: width, height: height, bytesPerPixel: 4, what: what)
        if pixelFormat.isYCbCr420 || pixelFormat.isBayer, width % 2 != 0 || height % 2 != 0 {
            throw .invalidArgument(what: what, problem: "4:2:0 and Bayer formats need an even width and height")
        }
        guard supportedColorSpaces.contains(.sRGB) else {
            throw .invalidArgument(
                what: "\(what) colour spaces \(supportedColorSpaces)", problem: "every video format supports sRGB; list .sRGB too")
        }
        if pixelFormat == .yuv420VideoRange, supportedColorSpaces.contains(.p3D65) {
            throw .invalidArgument(
                what: "\(what) colour spaces \(supportedColorSpaces)",
                problem: "video-range (420v) formats support sRGB only (SPEC W2); offer Display P3 on the 420f twin")
        }
        if let still = highResolutionStillDimensions, still.width < width || still.height < height {
            throw .invalidArgument(
                what: "\(what) high-resolution still size \(still)",
                problem: "must be at least the streaming size; leave it nil when stills are the streaming size")
        }
        try Self.checkRanges(iso: isoRange, duration: exposureDurationRange, what: what)
        mediaType = .video
        dimensions = CaptureDimensions(width: width, height: height)
        self.pixelFormat = pixelFormat
        self.frameRateRange = frameRateRange ?? CaptureFrameRateRange(checkedMin: 1, max: 30)
        var unique: [CaptureColorSpace] = []
        for space in supportedColorSpaces where !unique.contains(space) { unique.append(space) }
        self.supportedColorSpaces = unique
        self.highResolutionStillDimensions = highResolutionStillDimensions
        self.isHighestPhotoQualitySupported = isHighestPhotoQualitySupported
        self.isoRange = isoRange
        self.exposureDurationRange = exposureDurationRange
        audioFormat = nil
    }

    /// An audio format (a microphone's only format, typically).
    public init(audio: CaptureAudioFormat) {
        mediaType = .audio
        dimensions = CaptureDimensions(width: 0, height: 0)
        pixelFormat = nil
        // A buffer rate, not a frame rate: microphones deliver about 50 buffers a second.
        frameRateRange = CaptureFrameRateRange(checkedMin: 50, max: 50)
        supportedColorSpaces = []
        highResolutionStillDimensions = nil
        isHighestPhotoQualitySupported = false
        isoRange = 1...1
        exposureDurationRange = 1...1
        audioFormat = audio
    }

    /// The 420v and 420f twins of one size, as devices list them (C4; the 501 slides): the
    /// video-range format supports sRGB only, the full-range one sRGB and Display P3 when
    /// `wideColor` (W2).
    public static func videoRangePair(
        width: Int, height: Int, maxFrameRate: Double = 30,
        wideColor: Bool, highResolutionStillDimensions: CaptureDimensions? = nil,
        isHighestPhotoQualitySupported: Bool = false
    ) throws(DaguerreError) -> [CaptureDeviceFormat] {
        let rates = try CaptureFrameRateRange(minFrameRate: min(1, maxFrameRate), maxFrameRate: maxFrameRate)
        return [
            try CaptureDeviceFormat(
                width: width, height: height, pixelFormat: .yuv420VideoRange, frameRateRange: rates,
                highResolutionStillDimensions: highResolutionStillDimensions,
                isHighestPhotoQualitySupported: isHighestPhotoQualitySupported),
            try CaptureDeviceFormat(
                width: width, height: height, pixelFormat: .yuv420FullRange, frameRateRange: rates,
                supportedColorSpaces: wideColor ? [.sRGB, .p3D65] : [.sRGB],
                highResolutionStillDimensions: highResolutionStillDimensions,
                isHighestPhotoQualitySupported: isHighestPhotoQualitySupported),
        ]
    }

    /// Whether the format can stream Display P3 (W2).
    public var isWideColorSupported: Bool { supportedColorSpaces.contains(.p3D65) }
    /// The size of the largest still this format can give: the high-resolution size if any,
    /// else the streaming size.
    public var maxStillDimensions: CaptureDimensions { highResolutionStillDimensions ?? dimensions }

    public var description: String {
        if let audioFormat { return "audio \(audioFormat)" }
        var text = "\(dimensions) \(pixelFormat?.fourCC ?? "?") \(frameRateRange)"
        if isWideColorSupported { text += " sRGB/P3" }
        if let still = highResolutionStillDimensions { text += ", stills \(still)" }
        return text
    }

    static func checkRanges(iso: ClosedRange<Double>, duration: ClosedRange<Double>, what: String) throws(DaguerreError) {
        guard iso.lowerBound > 0, iso.upperBound.isFinite else {
            throw .invalidArgument(what: "\(what) ISO range \(iso)", problem: "must be positive and finite")
        }
        guard duration.lowerBound > 0, duration.upperBound.isFinite else {
            throw .invalidArgument(what: "\(what) exposure duration range \(duration) s", problem: "must be positive and finite")
        }
    }
}

extension Double {
    /// At most two decimals, without trailing zeros ("30", "29.97").
    var formatted2: String {
        let rounded = (self * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
