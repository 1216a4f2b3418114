// A linear-light tone curve as a table, and its hue-preserving application to RGB (SPEC X3:
// the boost and contrast stages). Our own code: a few lines, on the engine's kernels.

/// A curve `f` on linear light, tabulated on a square-root spacing over 0…`limit` (dense in the
/// shadows, where curves bend most), interpolated linearly; beyond `limit` the curve continues
/// with `slopeBeyond` (default: its last slope), and below 0 it is the identity
/// (extended-range values pass through).
///
/// ```swift
/// let lift = ToneCurveTable(limit: 4) { x in x / (1 + x) * 1.25 }
/// let y = lift(0.18)
/// ```
struct ToneCurveTable: Sendable {
    let limit: Float
    let values: [Float]
    private let endSlope: Float

    init(limit: Double, count: Int = 4096, slopeBeyond: Double? = nil, _ f: (Double) -> Double) {
        self.limit = Float(limit)
        values = (0...count).map { i in
            let t = Double(i) / Double(count)
            return Float(f(t * t * limit))
        }
        let e = limit * (1 - 1e-3)
        endSlope = Float(slopeBeyond ?? (f(limit) - f(e)) / (limit - e))
    }

    @inline(__always) func callAsFunction(_ x: Float) -> Float {
        guard x > 0 else { return x }
        guard x < limit else { return values[values.count - 1] + (x - limit) * endSlope }
        let t = (x / limit).squareRoot() * Float(values.count - 1)
        let i = min(Int(t), values.count - 2)
        let fr = t - Float(i)
        return values[i] + fr * (values[i + 1] - values[i])
    }

    /// The curve applied to the largest and smallest component, with the middle one placed
    /// between them at its old relative position: hue is kept, and highlights desaturate as
    /// they compress (the RGB tone method of Adobe's DNG SDK reference renderer).
    @inline(__always) func applyKeepingHue(_ p: SIMD4<Float>) -> SIMD4<Float> {
        let hi = max(p.x, max(p.y, p.z))
        let lo = min(p.x, min(p.y, p.z))
        let fhi = self(hi)
        let flo = self(lo)
        guard hi > lo else { return SIMD4(fhi, fhi, fhi, p.w) }
        let k = (fhi - flo) / (hi - lo)
        return SIMD4(flo + (p.x - lo) * k, flo + (p.y - lo) * k, flo + (p.z - lo) * k, p.w)
    }
}
