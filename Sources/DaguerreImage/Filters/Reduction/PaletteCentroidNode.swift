import DaguerreCore
import Synchronization

/// Where each colour of a palette lies in an image (PaletteCentroid; SPEC I4): an N×1 image, N
/// the palette's colours, whose pixel k holds the mean x and mean y (in red and green) of the
/// centres of the image's pixels nearest to colour k (as ``Palettize`` chooses: linear RGB or
/// L*a*b* distance, the first of equals; transparent pixels left out), the fraction of the
/// pixels that chose it in blue, and alpha 1; a colour no pixel chose gives (0, 0, 0, 1). The
/// image is streamed once.
final class PaletteCentroidNode: ImageNode, MaterializingNode, @unchecked Sendable {
    let region: IntRect
    let perceptual: Bool

    init(input: ImageNode, palette: ImageNode, colours: Int, perceptual: Bool) {
        region = input.pixelExtent
        self.perceptual = perceptual
        super.init(
            extent: Rect(x: Double(region.x), y: Double(region.y), width: Double(colours), height: 1), inputs: [input, palette],
            kind: "paletteCentroid"
        ) { d in d.add(perceptual ? 1 : 0) }
    }

    override var evaluation: Evaluation { .materialized }
    override var label: String { "paletteCentroid" }
    override var details: String { perceptual ? "perceptual" : "linear" }
    override var outputFormat: PixelFormat? { .rgbaf }
    override func roi(for rect: IntRect, input index: Int) -> IntRect { index == 0 ? region : inputs[1].pixelExtent }

    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer {
        let e = pixelExtent
        let perceptual = self.perceptual
        let paletteRect = inputs[1].pixelExtent
        let collector = PixelCollector(rect: paletteRect)
        try renderer.render(inputs[1], rect: paletteRect, sink: collector)
        let centres = collector.pixels().map { CIELab.place(SpanMath.unpremultiply($0), perceptual: perceptual) }
        var values = [SIMD4<Float>](repeating: SIMD4(0, 0, 0, 1), count: e.width)
        if !region.isEmpty, !centres.isEmpty {
            try renderer.env.limits.check(width: region.width, height: region.height, what: "PaletteCentroid image")
            let sink = PaletteCentroidSink(centres: centres, perceptual: perceptual)
            try renderer.render(inputs[0], rect: region, sink: sink)
            let (sums, counts) = sink.totals()
            let total = counts.reduce(0, +)
            for k in 0..<min(centres.count, e.width) where counts[k] > 0 {
                values[k] = SIMD4(Float(sums[k].x / counts[k]), Float(sums[k].y / counts[k]), Float(counts[k] / total), 1)
            }
        }
        var out = try PixelBuffer(width: e.width, height: e.height, format: .rgbaf)
        out.withUnsafeMutableBytes { raw in
            for (k, v) in values.enumerated() { raw.storeBytes(of: v, toByteOffset: k * 16, as: SIMD4<Float>.self) }
        }
        return MaterializedBuffer(buffer: out, rect: e)
    }
}
