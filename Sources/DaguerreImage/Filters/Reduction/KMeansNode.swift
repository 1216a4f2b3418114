import DaguerreCore
import Synchronization

/// k-means clustering of a region's colours (KMeans; SPEC I4): a `count`×1 image of the cluster
/// centres, each premultiplied by its weight (the fraction of the region's pixels in it), so
/// ``Palettize`` reads the colours back and a compositor sees how much of each there is.
///
/// Seeds are the means image's first `count` pixels (unpremultiplied, in reading order), then
/// greys evenly spaced from black to white for any still missing. Each of `passes` passes
/// assigns every pixel of the region (transparent ones left out) to its nearest centre by
/// Euclidean distance, in linear RGB or, `perceptual`, in CIE L*a*b* (the first of equals
/// winning), and moves every centre to the mean of its pixels (an empty cluster keeps its
/// centre); a last assignment gives the weights. The region is streamed once per pass, so its
/// size costs time, not memory. Sums are kept in double precision.
final class KMeansNode: ImageNode, MaterializingNode, @unchecked Sendable {
    let region: IntRect
    let count: Int
    let passes: Int
    let perceptual: Bool

    init(input: ImageNode, means: ImageNode, region: Rect, count: Int, passes: Int, perceptual: Bool) {
        let r = region.intersection(input.extent).integral
        self.region = r
        self.count = count
        self.passes = passes
        self.perceptual = perceptual
        super.init(
            extent: Rect(x: Double(r.x), y: Double(r.y), width: Double(count), height: 1), inputs: [input, means], kind: "kMeans"
        ) { d in
            for v in [r.x, r.y, r.width, r.height, count, passes, perceptual ? 1 : 0] { d.add(v) }
        }
    }

    override var evaluation: Evaluation { .materialized }
    override var label: String { "kMeans" }
    override var details: String { "\(count) clusters, \(passes) passes over \(region)" }
    override var outputFormat: PixelFormat? { .rgbaf }
    override func roi(for rect: IntRect, input index: Int) -> IntRect { index == 0 ? region : inputs[1].pixelExtent }

    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer {
        let e = pixelExtent
        let perceptual = self.perceptual
        var centres: [SIMD3<Float>] = []
        let meansRect = inputs[1].pixelExtent
        if !meansRect.isEmpty {
            let seeds = PixelCollector(rect: meansRect)
            try renderer.render(inputs[1], rect: meansRect, sink: seeds)
            centres = seeds.pixels().prefix(count).map { CIELab.place(SpanMath.unpremultiply($0), perceptual: perceptual) }
        }
        while centres.count < count {
            let g = count > 1 ? Float(centres.count) / Float(count - 1) : 0.5
            centres.append(CIELab.place(SIMD4(g, g, g, 1), perceptual: perceptual))
        }
        var weights = [Double](repeating: 0, count: count)
        if !region.isEmpty {
            try renderer.env.limits.check(width: region.width, height: region.height, what: "KMeans region")
            for pass in 0...passes {
                let sink = KMeansSink(centres: centres, perceptual: perceptual)
                try renderer.render(inputs[0], rect: region, sink: sink)
                let (sums, counts) = sink.totals()
                let total = counts.reduce(0, +)
                if pass < passes {
                    for k in 0..<count where counts[k] > 0 { centres[k] = SIMD3<Float>(sums[k] / counts[k]) }
                } else {
                    weights = counts.map { total > 0 ? $0 / total : 0 }
                }
            }
        }
        var out = try PixelBuffer(width: e.width, height: e.height, format: .rgbaf)
        out.withUnsafeMutableBytes { raw in
            for k in 0..<min(count, e.width) {
                let c = perceptual ? CIELab.rgb(centres[k]) : centres[k]
                let w = Float(weights[k])
                raw.storeBytes(of: SIMD4(c * w, w), toByteOffset: k * 16, as: SIMD4<Float>.self)
            }
        }
        return MaterializedBuffer(buffer: out, rect: e)
    }
}
