import DaguerreCore
import Foundation

/// The radial striations of SunbeamsGenerator and LenticularHaloGenerator (I4): a pattern of
/// rays around a centre that `time` animates. Core Image publishes no formula; the definition
/// used: at angle θ around the centre and time t in [0, 1],
/// n(θ, t) = (sin(13θ + 2πt) + sin(29θ − 4πt) + sin(47θ + 6πt)) / 3, and the striation is
/// S = clamp(½ + ½·contrast·n, 0, 1). Whole frequencies keep it continuous all round; whole
/// turns of phase make t = 0 and t = 1 the same frame, so an animation loops.
///
/// ```swift
/// let rays = Striation(contrast: 1.375, time: 0.25)
/// let s = rays.value(dx: 10, dy: -3)   // in [0, 1]
/// ```
struct Striation: Sendable {
    let contrast: Double
    let time: Double

    /// The striation at the offset (dx, dy) from the centre (y down).
    @inline(__always) func value(dx: Double, dy: Double) -> Double {
        let theta = atan2(dy, dx)
        let phase = 2 * Double.pi * time
        let n = (sin(13 * theta + phase) + sin(29 * theta - 2 * phase) + sin(47 * theta + 3 * phase)) / 3
        return min(max(0.5 + 0.5 * contrast * n, 0), 1)
    }

    func addDigest(_ d: inout DigestBuilder) { d.add([contrast, time]) }
}
