// A video track's decoder configuration, whichever codec: H.264 ('avcC') or HEVC ('hvcC').
import DaguerreCore
import DaguerreFormats

/// The parameter sets of a video track: an `avcC` record for H.264 (`avc1`, `avc3` sample
/// entries) or an `hvcC` record for HEVC (`hvc1`, `hev1`). ``MovieTrack/decoderConfiguration``
/// holds the one a file declares, ``VideoDecoder`` decodes either, and ``VideoTrackFormat``
/// writes the sample entry it names (`avc1` or `hvc1`).
///
/// ```swift
/// if case .hevc(let hvcC) = track.decoderConfiguration { print(hvcC.bitDepthLuma) }
/// let decoder = try VideoDecoder(configuration: track.decoderConfiguration!)
/// ```
public enum VideoDecoderConfiguration: Sendable, Hashable {
    case avc(AVCDecoderConfiguration)
    case hevc(HEVCDecoderConfiguration)

    /// The codec (what ``MovieSettings/videoCodec`` chooses when recording).
    public var codec: VideoCodec {
        switch self {
        case .avc: .h264
        case .hevc: .hevc
        }
    }

    /// The configuration box's body (the decoder's extradata).
    public func serialized() -> [UInt8] {
        switch self {
        case .avc(let c): c.serialized()
        case .hevc(let c): c.serialized()
        }
    }

    /// Bytes in each NAL unit's length prefix.
    public var nalLengthSize: Int {
        switch self {
        case .avc(let c): c.nalLengthSize
        case .hevc(let c): c.nalLengthSize
        }
    }

    /// The configuration box in a sample entry of `entry` type, parsed; nil when `box` is not the
    /// one such an entry holds (an `avcC` in an `hvc1` entry is ignored).
    static func parse(box: FourCC, in entry: FourCC, body: [UInt8]) throws(DaguerreError) -> VideoDecoderConfiguration? {
        switch (box, VideoCodec(sampleEntry: entry)) {
        case ("avcC", .h264): .avc(try AVCDecoderConfiguration(parsing: body))
        case ("hvcC", .hevc): .hevc(try HEVCDecoderConfiguration(parsing: body))
        default: nil
        }
    }
}
