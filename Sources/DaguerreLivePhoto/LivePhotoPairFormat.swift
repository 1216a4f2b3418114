// The file formats an edited Live Photo pair is saved in (SPEC E7): iOS 10's JPEG + H.264, or the
// HEIC + HEVC iPhones write since iOS 11.
import DaguerreMovie
import Foundation

/// What a saved pair is made of: the still's format and the movie's codec go together.
///
/// ```swift
/// var output = ContentEditingOutput(contentEditingInput: input,
///                                   still: URL(fileURLWithPath: "edited/IMG_0001.HEIC"),
///                                   movie: URL(fileURLWithPath: "edited/IMG_0001.MOV"))
/// print(output.pairFormat)   // heic: named by the still's extension
/// ```
public enum LivePhotoPairFormat: String, Sendable, Hashable, CaseIterable {
    /// A JPEG and an H.264 QuickTime movie: what every viewer plays.
    case jpeg
    /// A HEIC (HEVC through libheif and x265) and an HEVC QuickTime movie: about half the size.
    case heic

    /// The format a still's file name asks for: `.heic`/`.heif` HEIC, anything else JPEG.
    public init(stillURL: URL) {
        self = ["heic", "heif"].contains(stillURL.pathExtension.lowercased()) ? .heic : .jpeg
    }

    /// The extension of the still's file.
    public var stillExtension: String {
        switch self {
        case .jpeg: "JPG"
        case .heic: "HEIC"
        }
    }

    /// The movie's video codec.
    public var videoCodec: VideoCodec {
        switch self {
        case .jpeg: .h264
        case .heic: .hevc
        }
    }
}
