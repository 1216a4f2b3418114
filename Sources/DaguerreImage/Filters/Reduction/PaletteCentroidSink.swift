import DaguerreCore
import Synchronization

/// One pass over an image: each pixel to its nearest palette colour, the sums of the chosen
/// pixels' centres and their counts per colour.
final class PaletteCentroidSink: GatheringSink, Sendable {
    let centres: [SIMD3<Float>]
    let perceptual: Bool
    let state: Mutex<(sums: [SIMD2<Double>], counts: [Double])>

    init(centres: [SIMD3<Float>], perceptual: Bool) {
        self.centres = centres
        self.perceptual = perceptual
        state = Mutex(([SIMD2<Double>](repeating: .zero, count: centres.count), [Double](repeating: 0, count: centres.count)))
    }

    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        var sums = [SIMD2<Double>](repeating: .zero, count: centres.count)
        var counts = [Double](repeating: 0, count: centres.count)
        for i in 0..<count where pixels[i].w > 0 {
            let k = KMeansSink.nearest(CIELab.place(SpanMath.unpremultiply(pixels[i]), perceptual: perceptual), centres)
            sums[k] += SIMD2(Double(x + i) + 0.5, Double(y) + 0.5)
            counts[k] += 1
        }
        state.withLock { st in
            for k in 0..<centres.count {
                st.sums[k] += sums[k]
                st.counts[k] += counts[k]
            }
        }
    }

    func totals() -> (sums: [SIMD2<Double>], counts: [Double]) { state.withLock { ($0.sums, $0.counts) } }
}
