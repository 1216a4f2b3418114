// The boost curve (SPEC X3 "tone: the boost curve"; CIRAWFilter.boostAmount): a filmic
// scene-to-display tone curve with a toe and a long shoulder, so recovered highlights up to about
// two stops over white roll off instead of clipping. Our own code.
import Foundation

/// The filmic curve of John Hable's published operator (rational toe and shoulder), scaled so
/// 18 % grey lands at 19 % and 3.6 (almost two stops over diffuse white) at 1.
///
/// ```swift
/// let boosted = BoostCurve.table(1.6)   // ≈ 0.93
/// ```
enum BoostCurve {
    /// Hable's operator with its published constants (shoulder 0.15, linear 0.5 at angle 0.1,
    /// toe 0.2 with 0.02/0.3), before normalization.
    static func hable(_ x: Double) -> Double {
        let (a, b, c, d, e, f) = (0.15, 0.50, 0.10, 0.20, 0.02, 0.30)
        return (x * (a * x + c * b) + d * e) / (x * (a * x + b) + d * f) - e / f
    }
    static let white = 11.2
    /// Pre-gain that puts 0.18 at 0.19 (found by bisection once).
    static let gain: Double = {
        var lo = 0.5
        var hi = 10.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if hable(0.18 * mid) / hable(white) < 0.19 { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }()
    /// The curve on linear light: 0 → 0, 0.18 → 0.19, 11.2 / gain → 1, flat beyond.
    static func curve(_ x: Double) -> Double {
        x <= 0 ? x : min(hable(min(x * gain, white)) / hable(white), 1)
    }
    static let table = ToneCurveTable(limit: white / gain, slopeBeyond: 0, curve)
}
