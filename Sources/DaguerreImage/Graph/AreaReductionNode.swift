import DaguerreCore
import Synchronization

/// The reductions (AreaAverage, AreaMaximum, RowAverage, AreaHistogram…): a small image
/// computed from a region of its input.
///
/// Materialized and streamed: the region is rendered band by band into running totals, so
/// reducing a 400 MP region holds one band, not the region. Totals are kept in double
/// precision; extremes are order-independent, and the pixel with the extreme alpha is chosen by
/// (alpha, then first row, then first column), so tiles and threads never change a result.
final class AreaReductionNode: ImageNode, MaterializingNode, @unchecked Sendable {
    /// What the region reduces to, and the output's size.
    enum Operation: Sendable, Equatable {
        /// The mean colour: 1×1.
        case average
        /// The largest (smallest) value of each component: 1×1.
        case maximum, minimum
        /// The pixel with the largest (smallest) alpha: 1×1.
        case maximumAlpha, minimumAlpha
        /// Each component's smallest value (left) and largest (right): 2×1.
        case minMax
        /// The smallest red (in red) and the largest (in green), blue 0, alpha 1: 1×1.
        case minMaxRed
        /// Otsu's threshold of the red values' histogram over [0, 1] in 256 bins (values outside
        /// in the end bins): the centre of the bin that, as the last of the lower class,
        /// maximises the between-class variance (the first of equals), in all four components:
        /// 1×1.
        case otsu
        /// The bounding box of the pixels whose red is above 0, as (x, y, width, height) in the
        /// image's coordinates; (0, 0, 0, 0) when there are none: 1×1.
        case boundsRed
        /// The mean of each row: 1 wide, one pixel per row.
        case rowAverage
        /// The mean of each column: one pixel per column, 1 high.
        case columnAverage
        /// Each component's histogram over [0, 1] in `bins` equal bins (values outside clamp to
        /// the end bins), each bin the fraction of the region's pixels times `scale`:
        /// `bins` wide, 1 high. `binning` may place values by their logarithm instead, or weigh
        /// unpremultiplied values by their alpha.
        case histogram(bins: Int, scale: Double, binning: HistogramBinning = .linear)

        var name: String {
            switch self {
            case .average: "areaAverage"
            case .maximum: "areaMaximum"
            case .minimum: "areaMinimum"
            case .maximumAlpha: "areaMaximumAlpha"
            case .minimumAlpha: "areaMinimumAlpha"
            case .rowAverage: "rowAverage"
            case .columnAverage: "columnAverage"
            case .histogram: "areaHistogram"
            case .minMax: "areaMinMax"
            case .minMaxRed: "areaMinMaxRed"
            case .otsu: "otsuThreshold"
            case .boundsRed: "areaBoundsRed"
            }
        }
    }

    let region: IntRect
    let operation: Operation

    init(input: ImageNode, region: Rect, operation: Operation = .average) {
        let r = region.intersection(input.extent).integral
        self.region = r
        self.operation = operation
        let size: (Int, Int)
        switch operation {
        case .rowAverage: size = (1, r.height)
        case .columnAverage: size = (r.width, 1)
        case .histogram(let bins, _, _): size = (bins, 1)
        case .minMax: size = (2, 1)
        default: size = (1, 1)
        }
        super.init(
            extent: Rect(x: Double(r.x), y: Double(r.y), width: Double(size.0), height: Double(size.1)), inputs: [input],
            kind: operation.name
        ) { d in
            d.add(r.x)
            d.add(r.y)
            d.add(r.width)
            d.add(r.height)
            if case .histogram(let bins, let scale, let binning) = operation {
                d.add(bins)
                d.add(scale)
                binning.digest(&d)
            }
        }
    }

    override var evaluation: Evaluation { .materialized }
    override var label: String { operation.name }
    override var details: String { "\(region)" }
    override var outputFormat: PixelFormat? { .rgbaf }
    override func roi(for rect: IntRect, input index: Int) -> IntRect { region }

    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer {
        let e = pixelExtent
        var out = try PixelBuffer(width: e.width, height: e.height, format: .rgbaf)
        var values = [SIMD4<Float>](repeating: .zero, count: e.width * e.height)
        if !region.isEmpty {
            try renderer.env.limits.check(width: region.width, height: region.height, what: "\(operation.name) region")
            let sink = ReductionSink(operation: operation, region: region)
            try renderer.render(inputs[0], rect: region, sink: sink)
            values = sink.result()
        }
        let bpr = out.bytesPerRow
        out.withUnsafeMutableBytes { raw in
            for y in 0..<e.height {
                for x in 0..<e.width { raw.storeBytes(of: values[y * e.width + x], toByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self) }
            }
        }
        return MaterializedBuffer(buffer: out, rect: e)
    }
}

/// A sink that folds what it is given into an ``AreaReductionNode/Operation``'s totals.
final class ReductionSink: GatheringSink, Sendable {
    struct State {
        /// Sums (per row, per column or one), or extremes (one), or bin counts (per bin × 4).
        var totals: [SIMD4<Double>]
        /// For the alpha extremes: the chosen pixel and its (row, column).
        var pick = SIMD4<Float>()
        var pickAt = (y: Int.max, x: Int.max)
        var picked = false
    }

    let operation: AreaReductionNode.Operation
    let region: IntRect
    let state: Mutex<State>

    init(operation: AreaReductionNode.Operation, region: IntRect) {
        self.operation = operation
        self.region = region
        let totals: [SIMD4<Double>]
        switch operation {
        case .rowAverage: totals = Array(repeating: .zero, count: region.height)
        case .columnAverage: totals = Array(repeating: .zero, count: region.width)
        case .histogram(let bins, _, _): totals = Array(repeating: .zero, count: bins)
        case .otsu: totals = Array(repeating: .zero, count: OtsuThreshold.bins)
        case .maximum: totals = [SIMD4(repeating: -.infinity)]
        case .minimum: totals = [SIMD4(repeating: .infinity)]
        // Extremes both ways: the smallest so far, then the largest.
        case .minMax, .minMaxRed, .boundsRed: totals = [SIMD4(repeating: .infinity), SIMD4(repeating: -.infinity)]
        case .average, .maximumAlpha, .minimumAlpha: totals = [.zero]
        }
        state = Mutex(State(totals: totals))
    }

    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        guard count > 0 else { return }
        switch operation {
        case .average, .rowAverage:
            var s = SIMD4<Double>()
            for i in 0..<count { s += SIMD4<Double>(pixels[i]) }
            let row = operation == .rowAverage ? y - region.y : 0
            state.withLock { $0.totals[row] += s }
        case .columnAverage:
            state.withLock { st in
                for i in 0..<count { st.totals[x - region.x + i] += SIMD4<Double>(pixels[i]) }
            }
        case .maximum, .minimum:
            var m = pixels[0]
            for i in 1..<count { m = operation == .maximum ? pointwiseMax(m, pixels[i]) : pointwiseMin(m, pixels[i]) }
            let v = SIMD4<Double>(m)
            state.withLock { $0.totals[0] = operation == .maximum ? pointwiseMax($0.totals[0], v) : pointwiseMin($0.totals[0], v) }
        case .minMax, .minMaxRed:
            var (lo, hi) = (pixels[0], pixels[0])
            for i in 1..<count {
                lo = pointwiseMin(lo, pixels[i])
                hi = pointwiseMax(hi, pixels[i])
            }
            let (l, h) = (SIMD4<Double>(lo), SIMD4<Double>(hi))
            state.withLock { st in
                st.totals[0] = pointwiseMin(st.totals[0], l)
                st.totals[1] = pointwiseMax(st.totals[1], h)
            }
        case .maximumAlpha, .minimumAlpha:
            let larger = operation == .maximumAlpha
            var best = 0
            for i in 1..<count where larger ? pixels[i].w > pixels[best].w : pixels[i].w < pixels[best].w { best = i }
            let candidate = pixels[best]
            let at = (y: y, x: x + best)
            state.withLock { st in
                let better =
                    !st.picked || (larger ? candidate.w > st.pick.w : candidate.w < st.pick.w)
                    || (candidate.w == st.pick.w && (at.y, at.x) < (st.pickAt.y, st.pickAt.x))
                if better {
                    st.pick = candidate
                    st.pickAt = at
                    st.picked = true
                }
            }
        case .boundsRed:
            var (first, last) = (Int.max, Int.min)
            for i in 0..<count where pixels[i].x > 0 {
                first = min(first, i)
                last = i
            }
            guard last >= first else { return }
            let lo = SIMD4(Double(x + first), Double(y), 0, 0)
            let hi = SIMD4(Double(x + last + 1), Double(y + 1), 0, 0)
            state.withLock { st in
                st.totals[0] = pointwiseMin(st.totals[0], lo)
                st.totals[1] = pointwiseMax(st.totals[1], hi)
            }
        case .otsu:
            var counts = [Double](repeating: 0, count: OtsuThreshold.bins)
            for i in 0..<count {
                let b = HistogramBinning.linear.bins(SIMD4<Double>(pixels[i]), count: OtsuThreshold.bins)
                if b.x.isFinite { counts[Int(b.x)] += 1 }
            }
            state.withLock { st in for k in 0..<OtsuThreshold.bins { st.totals[k].x += counts[k] } }
        case .histogram(let bins, _, let binning):
            var counts = [SIMD4<Double>](repeating: .zero, count: bins)
            for i in 0..<count {
                // In double precision, so a value on a bin edge falls as numpy's histogram puts it.
                var v = SIMD4<Double>(pixels[i])
                var weight = SIMD4<Double>(repeating: 1)
                if binning.alphaWeighted {
                    let a = v.w
                    if a > 0 && a != 1 { v = SIMD4(v.x / a, v.y / a, v.z / a, a) }
                    weight = SIMD4(repeating: a)
                }
                let b = binning.bins(v, count: bins)
                for c in 0..<4 where b[c].isFinite { counts[Int(b[c])][c] += weight[c] }
            }
            state.withLock { st in for k in 0..<bins { st.totals[k] += counts[k] } }
        }
    }

    /// The output pixels, row by row.
    func result() -> [SIMD4<Float>] {
        state.withLock { st in
            switch operation {
            case .average: return [SIMD4<Float>(st.totals[0] / Double(region.area))]
            case .rowAverage: return st.totals.map { SIMD4<Float>($0 / Double(region.width)) }
            case .columnAverage: return st.totals.map { SIMD4<Float>($0 / Double(region.height)) }
            case .maximum, .minimum: return [SIMD4<Float>(st.totals[0])]
            case .minMax: return st.totals.map { SIMD4<Float>($0) }
            case .minMaxRed: return [SIMD4(Float(st.totals[0].x), Float(st.totals[1].x), 0, 1)]
            case .boundsRed:
                let (lo, hi) = (st.totals[0], st.totals[1])
                guard lo.x.isFinite else { return [.zero] }
                return [SIMD4(Float(lo.x), Float(lo.y), Float(hi.x - lo.x), Float(hi.y - lo.y))]
            case .otsu: return [SIMD4(repeating: Float(OtsuThreshold.threshold(st.totals.map(\.x))))]
            case .maximumAlpha, .minimumAlpha: return [st.pick]
            case .histogram(_, let scale, _): return st.totals.map { SIMD4<Float>($0 * (scale / Double(region.area))) }
            }
        }
    }
}
