// The pixel formats a camera streams in, named by their four-character codes (SPEC C4, R1).
import DaguerreFormats

/// How a device format's frames are laid out, with the Core Video four-character code the
/// seeds use for it (C4: "420v video-range / 420f full-range"; R1: the Bayer codes).
///
/// - `yuv420VideoRange` ('420v'): Y'CbCr 4:2:0, luma 16–235. sRGB only (W2).
/// - `yuv420FullRange` ('420f'): Y'CbCr 4:2:0, luma 0–255. The formats that can carry Display
///   P3 on a wide-colour device (W2).
/// - `bgra` ('BGRA'): 8-bit BGRA, interleaved.
/// - `bayer(pattern)` ('rgg4', 'grb4', 'bgg4', 'gbr4'): 14-bit Bayer mosaics in 16-bit words.
///
/// Frames arrive as ``CaptureFrame/Content``: a `PlanarYCbCr420Buffer` for both 420 formats
/// (with `fullRange` set accordingly), a `PixelBuffer` for BGRA, a `BayerImage` for Bayer.
///
/// ```swift
/// CapturePixelFormat.yuv420FullRange.fourCC          // "420f"
/// CapturePixelFormat(fourCC: "rgg4")                  // .bayer(.rggb)
/// ```
public enum CapturePixelFormat: Sendable, Hashable, CustomStringConvertible {
    case yuv420VideoRange
    case yuv420FullRange
    case bgra
    case bayer(BayerPattern)

    /// The four-character code ('420v', '420f', 'BGRA', 'rgg4'...).
    public var fourCC: String {
        switch self {
        case .yuv420VideoRange: return "420v"
        case .yuv420FullRange: return "420f"
        case .bgra: return "BGRA"
        case let .bayer(pattern): return pattern.fourCC
        }
    }

    /// Parses a four-character code; nil for codes no capture format uses.
    public init?(fourCC: String) {
        switch fourCC {
        case "420v": self = .yuv420VideoRange
        case "420f": self = .yuv420FullRange
        case "BGRA": self = .bgra
        default:
            guard let pattern = BayerPattern(fourCC: fourCC) else { return nil }
            self = .bayer(pattern)
        }
    }

    /// Y'CbCr 4:2:0 in either range.
    public var isYCbCr420: Bool { self == .yuv420VideoRange || self == .yuv420FullRange }
    /// A raw sensor mosaic.
    public var isBayer: Bool { if case .bayer = self { return true } else { return false } }

    public var description: String { fourCC }
}
