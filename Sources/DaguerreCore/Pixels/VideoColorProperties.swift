// Colour tags of a video stream: the 'colr' atom ('nclx') and the H.264 VUI, ISO/IEC 23001-8 codes.

/// Colour primaries, transfer function and Y'CbCr matrix of a video, as ISO/IEC 23001-8 (CICP)
/// code points: what the `colr` 'nclx' atom and the H.264 VUI both carry
/// (AVVideoColorPropertiesKey).
///
/// The encoder converts RGB to Y'CbCr without touching the transfer curve: gamma-encoded sRGB or
/// Display P3 values go straight into the BT.709 matrix, as iOS records video, and the tags say
/// which primaries they are in. SPEC W5: Live Photo movies carry wide colour, so a Display P3
/// movie is tagged primaries 12 (SMPTE EG 432-1, P3 with the D65 white point), transfer 1 and
/// matrix 1 (BT.709) — Apple's tagging of P3 video. The decoder maps the primaries back to
/// ``ColorSpace/sRGB`` or ``ColorSpace/displayP3``, so a round trip returns the numbers it was given.
///
/// ```swift
/// let tags = VideoColorProperties(colorSpace: .displayP3)
/// tags.primaries    // 12
/// ```
public struct VideoColorProperties: Sendable, Hashable, CustomStringConvertible {
    /// ColourPrimaries: 1 BT.709 / sRGB, 9 BT.2020, 12 P3-D65.
    public var primaries: UInt16
    /// TransferCharacteristics: 1 BT.709, 13 sRGB (IEC 61966-2-1), 8 linear.
    public var transfer: UInt16
    /// MatrixCoefficients: 1 BT.709, 6 BT.601, 9 BT.2020 non-constant.
    public var matrix: UInt16
    /// Full-range (0–255) rather than video-range (16–235 luma) samples.
    public var fullRange: Bool

    public init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool = false) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// HD video: BT.709 primaries, transfer and matrix, video range (the default, L2).
    public static let bt709 = VideoColorProperties(primaries: 1, transfer: 1, matrix: 1)
    /// Wide colour video (W5): P3-D65 primaries with the BT.709 transfer and matrix.
    public static let displayP3 = VideoColorProperties(primaries: 12, transfer: 1, matrix: 1)

    /// Tags for frames in `colorSpace`: Display P3 (and its linear form) get ``displayP3``,
    /// everything else ``bt709``.
    public init(colorSpace: ColorSpace?) {
        if let cs = colorSpace, cs == .displayP3 || cs == .linearDisplayP3 || cs.name.contains("P3") {
            self = .displayP3
        } else {
            self = .bt709
        }
    }

    /// The RGB space decoded frames are tagged with: Display P3 for primaries 12, BT.2020 for 9,
    /// sRGB otherwise.
    public var rgbColorSpace: ColorSpace {
        switch primaries {
        case 12, 11: return .displayP3
        case 9: return .itur2020
        default: return .sRGB
        }
    }

    public var description: String { "primaries \(primaries), transfer \(transfer), matrix \(matrix)\(fullRange ? ", full range" : "")" }
}
