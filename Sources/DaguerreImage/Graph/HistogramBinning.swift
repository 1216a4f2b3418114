import DaguerreCore
import Foundation

/// How a histogram places its values (AreaHistogram, AreaLogarithmicHistogram,
/// AreaAlphaWeightedHistogram): on [0, 1] in equal bins, or by their base-2 logarithm between
/// two stops (values at or below 2^minimum, zero and negatives included, in the first bin); and
/// whether each pixel counts once, or, on its unpremultiplied values, as much as its alpha.
struct HistogramBinning: Sendable, Equatable {
    enum Placement: Sendable, Equatable {
        case linear
        case log2(minimumStop: Double, maximumStop: Double)
    }

    var placement: Placement = .linear
    var alphaWeighted = false

    static let linear = HistogramBinning()

    /// The bin of each component of `v` among `count` (clamped to the end bins; NaN stays NaN).
    @inline(__always) func bins(_ v: SIMD4<Double>, count: Int) -> SIMD4<Double> {
        let top = SIMD4<Double>(repeating: Double(count - 1))
        var position: SIMD4<Double>
        switch placement {
        case .linear: position = v * Double(count)
        case .log2(let lo, let hi):
            position = SIMD4<Double>.zero
            for c in 0..<4 {
                position[c] = v[c] > 0 ? (Foundation.log2(v[c]) - lo) / (hi - lo) * Double(count) : (v[c].isNaN ? .nan : -1)
            }
        }
        return pointwiseMin(pointwiseMax(position.rounded(.down), .zero), top)
    }

    func digest(_ d: inout DigestBuilder) {
        switch placement {
        case .linear: d.add("linear")
        case .log2(let lo, let hi): d.add([lo, hi])
        }
        d.add(alphaWeighted ? 1 : 0)
    }
}
