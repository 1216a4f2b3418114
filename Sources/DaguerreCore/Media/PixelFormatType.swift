// The pixel formats of media samples, named by their Core Video four-character codes (SPEC C4,
// P3, R1): one vocabulary for capture formats, photo settings and sample buffers.

/// How a sample buffer's pixels are laid out, with the four-character code the seeds use for it
/// (`kCVPixelFormatType_…`; C4: "420v video-range / 420f full-range"; R1: the Bayer codes).
///
/// - `yuv420VideoRange` ('420v'): Y'CbCr 4:2:0, luma 16–235. sRGB only (W2).
/// - `yuv420FullRange` ('420f'): Y'CbCr 4:2:0, luma 0–255. The formats that can carry Display
///   P3 on a wide-colour device (W2).
/// - `bgra` ('BGRA'): 8-bit BGRA, interleaved (``PixelFormat/bgra8``).
/// - `bayer(pattern)` ('rgg4', 'grb4', 'bgg4', 'gbr4'): 14-bit Bayer mosaics in 16-bit words.
///
/// A ``SampleBuffer`` holds a ``PlanarYCbCr420Buffer`` for both 420 formats (its `fullRange`
/// says which), a ``PixelBuffer`` for BGRA and a ``BayerImage`` for Bayer; its
/// ``SampleBuffer/pixelFormatType`` says which of these it is.
///
/// ```swift
/// PixelFormatType.yuv420FullRange.fourCC          // "420f"
/// PixelFormatType(fourCC: "rgg4")                  // .bayer(.rggb)
/// PixelFormatType(PixelFormat.bgra8)               // .bgra
/// ```
public enum PixelFormatType: Sendable, Hashable, CustomStringConvertible {
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
        case .bayer(let pattern): return pattern.fourCC
        }
    }

    /// Parses a four-character code; nil for codes no sample format uses.
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

    /// The sample format of an interleaved buffer in `format`, or nil when no sample format is
    /// laid out that way (only BGRA8 is one).
    public init?(_ format: PixelFormat) {
        guard format == .bgra8 else { return nil }
        self = .bgra
    }

    /// The interleaved layout of this format's pixel buffers, or nil for planar and mosaic formats.
    public var pixelFormat: PixelFormat? { self == .bgra ? .bgra8 : nil }

    /// Y'CbCr 4:2:0 in either range.
    public var isYCbCr420: Bool { self == .yuv420VideoRange || self == .yuv420FullRange }
    /// A raw sensor mosaic.
    public var isBayer: Bool { if case .bayer = self { return true } else { return false } }

    public var description: String { fourCC }
}
