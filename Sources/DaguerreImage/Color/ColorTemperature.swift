import DaguerreCore
import Foundation

/// Correlated colour temperature and tint ↔ CIE xy, by Robertson's method: interpolation
/// between isotherms of the Planckian locus in CIE 1960 uv, with tint as a distance along the
/// isotherm (one unit = 1/3000 uv, the convention raw converters use). Used by
/// TemperatureAndTint and by RAW white balance (RAWFilter's neutral temperature and tint).
///
/// ```swift
/// let d65ish = ColorTemperature.xy(temperature: 6504, tint: 0)   // ≈ (0.3135, 0.3237) on the locus
/// ```
public enum ColorTemperature {
    /// (reciprocal megakelvin, u, v, isotherm slope) from Wyszecki & Stiles.
    static let isotherms: [(r: Double, u: Double, v: Double, t: Double)] = [
        (0, 0.18006, 0.26352, -0.24341), (10, 0.18066, 0.26589, -0.25479), (20, 0.18133, 0.26846, -0.26876),
        (30, 0.18208, 0.27119, -0.28539), (40, 0.18293, 0.27407, -0.30470), (50, 0.18388, 0.27709, -0.32675),
        (60, 0.18494, 0.28021, -0.35156), (70, 0.18611, 0.28342, -0.37915), (80, 0.18740, 0.28668, -0.40955),
        (90, 0.18880, 0.28997, -0.44278), (100, 0.19032, 0.29326, -0.47888), (125, 0.19462, 0.30141, -0.58204),
        (150, 0.19962, 0.30921, -0.70471), (175, 0.20525, 0.31647, -0.84901), (200, 0.21142, 0.32312, -1.0182),
        (225, 0.21807, 0.32909, -1.2168), (250, 0.22511, 0.33439, -1.4512), (275, 0.23247, 0.33904, -1.7298),
        (300, 0.24010, 0.34308, -2.0637), (325, 0.24702, 0.34655, -2.4681), (350, 0.25591, 0.34951, -2.9641),
        (375, 0.26400, 0.35200, -3.5814), (400, 0.27218, 0.35407, -4.3633), (425, 0.28039, 0.35577, -5.3762),
        (450, 0.28863, 0.35714, -6.7262), (475, 0.29685, 0.35823, -8.5955), (500, 0.30505, 0.35907, -11.324),
        (525, 0.31320, 0.35968, -15.628), (550, 0.32129, 0.36011, -23.325), (575, 0.32931, 0.36038, -40.770),
        (600, 0.33724, 0.36051, -116.45),
    ]
    static let tintScale = -1.0 / 3000.0

    /// The chromaticity of a temperature (1667…50 000 K, clamped) and tint (green −, magenta +).
    public static func xy(temperature: Double, tint: Double) -> SIMD2<Double> {
        let r = 1e6 / min(max(temperature, 1667), 1e6)
        let table = isotherms
        var i = 0
        while i < table.count - 2 && r >= table[i + 1].r { i += 1 }
        let a = table[i]
        let b = table[i + 1]
        let f = min(max((b.r - r) / (b.r - a.r), 0), 1)
        var u = a.u * f + b.u * (1 - f)
        var v = a.v * f + b.v * (1 - f)
        // Unit vectors along the two isotherms, blended, give the tint direction.
        func unit(_ t: Double) -> SIMD2<Double> {
            let l = (1 + t * t).squareRoot()
            return SIMD2(1 / l, t / l)
        }
        var d = unit(a.t) * f + unit(b.t) * (1 - f)
        d /= (d * d).sum().squareRoot()
        u += d.x * tint * tintScale
        v += d.y * tint * tintScale
        let den = u - 4 * v + 2
        return SIMD2(1.5 * u / den, v / den)
    }

    /// The Bradford matrix, in linear sRGB (the working primaries), that moves white from the
    /// chromaticity of (`temperature`, `tint`) to that of (`targetTemperature`, `targetTint`).
    static func adaptation(from: SIMD2<Double>, to: SIMD2<Double>) -> Matrix3 {
        let m = Primaries.srgb.rgbToXYZ
        let adapt = Matrix3.bradfordAdaptation(from: Primaries.xyz(from), to: Primaries.xyz(to))
        return m.inverse! * adapt * m
    }

    /// Temperature and tint of a chromaticity: the inverse of ``xy(temperature:tint:)``,
    /// by a coarse-to-fine search in reciprocal temperature and tint.
    public static func temperatureAndTint(of xy: SIMD2<Double>) -> (temperature: Double, tint: Double) {
        var best = (t: 5000.0, tint: 0.0)
        var bestD = Double.infinity
        var mired = (lo: 20.0, hi: 600.0)
        var tint = (lo: -150.0, hi: 150.0)
        for _ in 0..<6 {
            let ms = stride(from: mired.lo, through: mired.hi, by: (mired.hi - mired.lo) / 24)
            let ts = stride(from: tint.lo, through: tint.hi, by: (tint.hi - tint.lo) / 24)
            for m in ms {
                for k in ts {
                    let p = Self.xy(temperature: 1e6 / m, tint: k) - xy
                    let d = (p * p).sum()
                    if d < bestD {
                        bestD = d
                        best = (1e6 / m, k)
                    }
                }
            }
            let bm = 1e6 / best.t
            let dm = (mired.hi - mired.lo) / 12
            let dk = (tint.hi - tint.lo) / 12
            mired = (max(1, bm - dm), bm + dm)
            tint = (best.tint - dk, best.tint + dk)
        }
        return (best.t, best.tint)
    }
}
