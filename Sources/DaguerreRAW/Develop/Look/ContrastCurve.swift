// Global contrast (SPEC X3 "contrast"; CIRAWFilter.contrastAmount): an S-curve in the sRGB-encoded
// domain, pivoting on its middle, so mid-tones steepen while black and white stay put. Our own code.
import DaguerreCore
import Foundation

/// `e + amount · 0.8 · sin(2πe − π)/(2π)` on the encoded value e in 0…1 (identity outside):
/// slope 1 + 0.8·amount at the middle, 1 − 0.8·amount at the ends, monotonic for |amount| ≤ 1.
///
/// ```swift
/// let steeper = ContrastCurve.table(amount: 0.5)(0.18)
/// ```
enum ContrastCurve {
    static func table(amount: Double) -> ToneCurveTable {
        let k = 0.8 * min(max(amount, -1), 1)
        return ToneCurveTable(limit: 1) { x in
            let e = TransferFunction.sRGB.encode(x)
            return TransferFunction.sRGB.decode(e + k * sin(2 * Double.pi * e - Double.pi) / (2 * Double.pi))
        }
    }
}
