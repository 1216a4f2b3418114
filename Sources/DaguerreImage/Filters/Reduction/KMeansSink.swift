import DaguerreCore
import Synchronization

/// One k-means pass: each pixel to its nearest centre, the sums and counts per cluster.
final class KMeansSink: GatheringSink, Sendable {
    let centres: [SIMD3<Float>]
    let perceptual: Bool
    let state: Mutex<(sums: [SIMD3<Double>], counts: [Double])>

    init(centres: [SIMD3<Float>], perceptual: Bool) {
        self.centres = centres
        self.perceptual = perceptual
        state = Mutex(([SIMD3<Double>](repeating: .zero, count: centres.count), [Double](repeating: 0, count: centres.count)))
    }

    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        var sums = [SIMD3<Double>](repeating: .zero, count: centres.count)
        var counts = [Double](repeating: 0, count: centres.count)
        for i in 0..<count where pixels[i].w > 0 {
            let p = CIELab.place(SpanMath.unpremultiply(pixels[i]), perceptual: perceptual)
            let best = Self.nearest(p, centres)
            sums[best] += SIMD3<Double>(p)
            counts[best] += 1
        }
        state.withLock { st in
            for k in 0..<centres.count {
                st.sums[k] += sums[k]
                st.counts[k] += counts[k]
            }
        }
    }

    /// The index of the centre nearest to `p` (squared Euclidean distance; the first of equals).
    @inline(__always) static func nearest(_ p: SIMD3<Float>, _ centres: [SIMD3<Float>]) -> Int {
        var best = 0
        var nearest = Float.infinity
        for (k, c) in centres.enumerated() {
            let d = p - c
            let distance = (d * d).sum()
            if distance < nearest {
                nearest = distance
                best = k
            }
        }
        return best
    }

    func totals() -> (sums: [SIMD3<Double>], counts: [Double]) { state.withLock { ($0.sums, $0.counts) } }
}
