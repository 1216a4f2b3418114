// The video codecs Daguerre's movies use, and the QuickTime names that go with each.
import DaguerreCore
import DaguerreFormats

/// A movie's video codec: H.264 (Live Photos up to iOS 10, the default) or HEVC (H.265, Live
/// Photos since iOS 11). ``MovieSettings/videoCodec`` chooses the one a recording uses.
///
/// Encoding: H.264 with x264 or OpenH264 (``H264EncoderChoice``), HEVC with x265 through
/// libavcodec (``HEVCEncoder``; GPL-2 or later, like x264). Decoding: both with libavcodec
/// (``VideoDecoder``).
///
/// ```swift
/// var settings = MovieSettings()
/// settings.videoCodec = .hevc      // an 'hvc1' track, as iPhones record since iOS 11
/// ```
public enum VideoCodec: String, Sendable, Hashable, CaseIterable {
    case h264
    case hevc

    /// The codec of a sample entry type: `avc1`/`avc3` H.264, `hvc1`/`hev1` HEVC; nil otherwise.
    public init?(sampleEntry: FourCC) {
        switch sampleEntry {
        case "avc1", "avc3": self = .h264
        case "hvc1", "hev1": self = .hevc
        default: return nil
        }
    }

    /// The sample entry type Daguerre writes: `avc1`, or `hvc1` (parameter sets only in the
    /// `hvcC` record, which Apple's players require).
    public var sampleEntryType: FourCC {
        switch self {
        case .h264: "avc1"
        case .hevc: "hvc1"
        }
    }

    /// The configuration box of the sample entry.
    var configurationBoxType: FourCC {
        switch self {
        case .h264: "avcC"
        case .hevc: "hvcC"
        }
    }

    /// The name in messages and in the sample entry's compressor name.
    public var displayName: String {
        switch self {
        case .h264: "H.264"
        case .hevc: "HEVC"
        }
    }
}
