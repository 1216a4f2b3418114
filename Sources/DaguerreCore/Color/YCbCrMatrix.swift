// The Y'CbCr matrices (ITU-R BT.709, BT.601, BT.2020): one definition of the luma weights that
// video encoding, decoding and the virtual camera's video path use, and from which the engine's
// luminance weights (``Luma``) come.

/// A Y'CbCr matrix: the weights Kr and Kb of R' and B' in luma (Kg = 1 − Kr − Kb), from which
/// Cb = (B' − Y') / (2(1 − Kb)) and Cr = (R' − Y') / (2(1 − Kr)).
///
/// ```swift
/// let m = YCbCrMatrix(code: 1)            // ISO/IEC 23001-8 MatrixCoefficients: BT.709
/// m.kr, m.kb                               // 0.2126, 0.0722
/// m.videoRangeFixedPoint().luma            // (11966, 40254, 4064): R', G', B' × 219/255 × 65536
/// ```
public struct YCbCrMatrix: Sendable, Hashable {
    public let kr: Double
    public let kb: Double
    public var kg: Double { 1 - kr - kb }

    public init(kr: Double, kb: Double) {
        self.kr = kr
        self.kb = kb
    }

    public static let bt709 = YCbCrMatrix(kr: 0.2126, kb: 0.0722)
    public static let bt601 = YCbCrMatrix(kr: 0.299, kb: 0.114)
    public static let bt2020 = YCbCrMatrix(kr: 0.2627, kb: 0.0593)

    /// The matrix an ISO/IEC 23001-8 MatrixCoefficients code names: 5 and 6 BT.601, 9 and 10
    /// BT.2020, BT.709 otherwise.
    public init(code: UInt16) {
        switch code {
        case 5, 6: self = .bt601
        case 9, 10: self = .bt2020
        default: self = .bt709
        }
    }

    /// 2(1 − Kb): (B' − Y') divided by it is Cb.
    public var cbDivisor: Double { 2 * (1 - kb) }
    /// 2(1 − Kr): (R' − Y') divided by it is Cr.
    public var crDivisor: Double { 2 * (1 - kr) }

    /// The matrix in 16-bit fixed point for 8-bit R'G'B' in, at video range (luma × 219/255,
    /// chroma × 224/255) or full range (× 1), then × 65536: each row's outer coefficients
    /// rounded, the middle one making the row's sum exact (luma rows sum to the scale, chroma
    /// rows to zero), so grey stays exactly neutral.
    public func fixedPoint(fullRange: Bool) -> (luma: (Int32, Int32, Int32), cb: (Int32, Int32, Int32), cr: (Int32, Int32, Int32)) {
        let y = (fullRange ? 1 : 219.0 / 255) * 65536
        let c = (fullRange ? 1 : 224.0 / 255) * 65536
        let yr = Int32((kr * y).rounded())
        let yb = Int32((kb * y).rounded())
        let half = Int32((0.5 * c).rounded())
        let cbr = -Int32((kr / cbDivisor * c).rounded())
        let crb = -Int32((kb / crDivisor * c).rounded())
        return ((yr, Int32(y.rounded()) - yr - yb, yb), (cbr, -half - cbr, half), (half, -half - crb, crb))
    }

    /// ``fixedPoint(fullRange:)`` at video range.
    public func videoRangeFixedPoint() -> (luma: (Int32, Int32, Int32), cb: (Int32, Int32, Int32), cr: (Int32, Int32, Int32)) {
        fixedPoint(fullRange: false)
    }
}
