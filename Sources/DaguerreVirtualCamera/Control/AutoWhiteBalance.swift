// Auto-white-balance as a control loop (SPEC C4): grey candidates near the camera's
// Planckian locus are averaged to estimate the light, and the gains move a damped step towards
// neutralizing it each frame.
import Foundation

/// White-balance gains for the camera's red, green and blue (green is 1).
///
/// ```swift
/// var awb = AutoWhiteBalance()
/// gains = awb.update(current: gains, statistics: stats)
/// ```
public struct AutoWhiteBalance: Sendable {
    public var damping = 0.6
    /// How far (in log chroma) a cell may lie from the locus and still count as grey.
    public var tolerance = 0.12
    /// The camera's neutral chroma (log R/G, log B/G) for blackbodies from 2000 K to 12000 K.
    let locus: [SIMD2<Double>]

    public init() {
        locus = stride(from: 2000.0, through: 12000, by: 100).map { t in
            let spectrum = SpectralTables.wavelengths.map { Self.planck($0 * 1e-9, t) }
            let n = Colorimetry.cameraResponse(ofLight: spectrum)
            return SIMD2(log(n.x / n.y), log(n.z / n.y))
        }
    }

    /// Black-body spectral radiance (relative) at wavelength `l` metres and temperature `t` kelvin.
    static func planck(_ l: Double, _ t: Double) -> Double { 1 / (pow(l, 5) * (exp(1.4388e-2 / (l * t)) - 1)) }

    /// The estimated neutral (camera R, G, B with G = 1) from grey-candidate cells, or nil when
    /// no cell is bright enough and near the locus.
    public func estimateNeutral(_ s: FrameStatistics) -> SIMD3<Double>? {
        var sum = SIMD2<Double>.zero
        var weight = 0.0
        for c in s.cells where c.min() > 0.01 && c.max() < 0.9 {
            let chroma = SIMD2(log(c.x / c.y), log(c.z / c.y))
            let distance = locus.map { (($0 - chroma) * ($0 - chroma)).sum() }.min() ?? .infinity
            if distance < tolerance * tolerance {
                sum += chroma * c.y
                weight += c.y
            }
        }
        guard weight > 0 else { return nil }
        let mean = sum / weight
        return SIMD3(exp(mean.x), 1, exp(mean.y))
    }

    /// Gains for the next frame: a damped step (in log space) towards 1/neutral.
    public func update(current: SIMD3<Double>, statistics: FrameStatistics) -> SIMD3<Double> {
        guard let n = estimateNeutral(statistics) else { return current }
        let goal = SIMD3(1 / n.x, 1, 1 / n.z)
        return SIMD3(
            exp(log(current.x) + damping * (log(goal.x) - log(current.x))), 1,
            exp(log(current.z) + damping * (log(goal.z) - log(current.z))))
    }
}
