// The encoding LMMSE-GW demosaics in (SPEC X2, X5). A colour-difference demosaic works best on
// perceptually spaced values: the project's demosaic research measured about 6 dB more on the
// L protocol with the sRGB curve than in linear light. Pipeline versions 2 and 3 use the sRGB
// curve through tables; version 4 uses a pure power of 2.5, which scores as well (Kodak24
// 40.41 dB against 40.34, hold-out 42.75 against 42.84, saturated Kodak 33.93 against 33.74,
// noisy Kodak 35.84 against 35.90: research/demosaic/scratch/scratch_g2dom.py,
// scratch_g3check.py) and whose inverse is two multiplications and a square root, so the
// develop's per-sample encode and decode vectorize instead of reading tables. Our own code.
import Foundation

/// The curve the mosaic is encoded with before LMMSE-GW and decoded with after it.
///
/// ```swift
/// DemosaicDomain.power25.encode(0.18)          // 0.18^0.4 ≈ 0.504
/// DemosaicDomain.sRGB.encode(0.18)             // ≈ 0.461
/// ```
enum DemosaicDomain: String, Sendable, Hashable {
    /// The sRGB curve, through `SRGBCurve`'s tables (pipeline versions 2 and 3, pinned).
    case sRGB
    /// x^0.4 in, y^2.5 out, evaluated by `PowerDomain` (pipeline version 4).
    case power25

    /// The exact curve, for the per-code tables of mosaics read without noise reduction.
    func encode(_ x: Double) -> Double {
        switch self {
        case .sRGB: SRGBCurve.encode(x)
        case .power25: x > 0 ? pow(x, 0.4) : 0
        }
    }
}
