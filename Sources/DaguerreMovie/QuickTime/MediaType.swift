// The kind of media a track holds (AVMediaType), from its handler type.
import DaguerreCore
import DaguerreFormats

/// What a track holds, named after AVMediaType and read from the media handler type
/// ('vide', 'soun', 'meta', …).
///
/// ```swift
/// MediaType(handler: "soun")   // .audio
/// MediaType.metadata.handler   // 'meta'
/// ```
public enum MediaType: Sendable, Hashable, CustomStringConvertible {
    case video
    case audio
    /// Timed metadata ('meta'), such as a Live Photo's still-image-time track (L4).
    case metadata
    case text
    case other(FourCC)

    public init(handler: FourCC) {
        switch handler {
        case "vide": self = .video
        case "soun": self = .audio
        case "meta": self = .metadata
        case "text", "sbtl", "subt": self = .text
        default: self = .other(handler)
        }
    }

    /// The handler type written in `hdlr`.
    public var handler: FourCC {
        switch self {
        case .video: return "vide"
        case .audio: return "soun"
        case .metadata: return "meta"
        case .text: return "text"
        case .other(let c): return c
        }
    }

    public var description: String {
        switch self {
        case .video: return "video"
        case .audio: return "audio"
        case .metadata: return "metadata"
        case .text: return "text"
        case .other(let c): return "'\(c)'"
        }
    }
}
