// The one linearization of raw codes (DNG 1.4 §5.5: BlackLevel, WhiteLevel; SPEC X2, X6): a
// code becomes x = (code − black) / (white − black), per CFA position (a mosaic's 2×2 block) or
// per plane (LinearRaw). Every develop path, the noise estimate and the neutral pick take their
// levels from here, in the precision their arithmetic was pinned in (X5).
import DaguerreCore
import DaguerreFormats

/// Black levels and ranges (white − black, at least 1) per CFA position or plane.
///
/// Two forms of the same formula, each kept bit for bit where a pipeline version pinned it:
/// - in `Double`, ``value(_:at:)`` divides by the range (the per-code tables, the neutral pick);
/// - in `Float`, ``floatBlack`` and ``floatScale`` multiply by the range's reciprocal, rounded
///   to float (the pixel loops: bilinear, half size, the denoise window, LinearRaw).
///
/// ```swift
/// let lin = Linearization(layout: mosaic.layout)
/// let x = lin.value(Double(code), at: (y & 1) << 1 | (x & 1))          // Double, divided
/// let f = (Float(code) - lin.floatBlack[p]) * lin.floatScale[p]        // Float, multiplied
/// ```
struct Linearization: Sendable {
    /// Black level per position or plane.
    let black: [Double]
    /// max(white − black, 1) per position or plane.
    let range: [Double]

    /// Levels per position or plane (`white` one per entry of `black`).
    init(black: [Double], white: [Int]) {
        self.black = black
        range = zip(black, white).map { max(Double($1) - $0, 1) }
    }

    /// A mosaic's four CFA positions (row-major over the 2×2 block).
    init(layout: MosaicLayout) {
        self.init(black: layout.blackLevel, white: Array(repeating: layout.whiteLevel, count: layout.blackLevel.count))
    }

    /// A LinearRaw image's planes.
    init(linearRaw l: LinearRawImage) {
        self.init(black: Array(l.blackLevel.prefix(l.samplesPerPixel)), white: Array(l.whiteLevel.prefix(l.samplesPerPixel)))
    }

    /// x for `code` at position or plane `p`, in Double (divided by the range).
    @inline(__always) func value(_ code: Double, at p: Int) -> Double { (code - black[p]) / range[p] }

    /// 1 / range per position or plane, in Double.
    var scale: [Double] { range.map { 1 / $0 } }
    /// The black levels as floats.
    var floatBlack: [Float] { black.map(Float.init) }
    /// 1 / range per position or plane, rounded to float.
    var floatScale: [Float] { range.map { Float(1 / $0) } }

    /// The Float form for one code: (code − black) × scale, with ``floatBlack`` and
    /// ``floatScale`` of its position or plane (every Float pixel loop and the noise reduction's
    /// code tables go through it).
    @inline(__always) static func float(_ code: UInt16, black: Float, scale: Float) -> Float { (Float(code) - black) * scale }
}
