import DaguerreCore
import Synchronization

/// AreaAverage (and future reductions): a 1×1 image holding the mean of a region of its input.
///
/// Materialized: the region is rendered band by band into a running double-precision sum, so
/// averaging a 400 MP region holds one band, not the region.
final class AreaReductionNode: ImageNode, MaterializingNode, @unchecked Sendable {
    let region: IntRect

    init(input: ImageNode, region: Rect) {
        let r = region.intersection(input.extent).integral
        self.region = r
        super.init(extent: Rect(x: Double(r.x), y: Double(r.y), width: 1, height: 1), inputs: [input], kind: "areaAverage") { d in
            d.add(r.x)
            d.add(r.y)
            d.add(r.width)
            d.add(r.height)
        }
    }

    override var evaluation: Evaluation { .materialized }
    override var label: String { "areaAverage" }
    override var details: String { "\(region)" }
    override var outputFormat: PixelFormat? { .rgbaf }
    override func roi(for rect: IntRect, input index: Int) -> IntRect { region }

    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer {
        var out = try PixelBuffer(width: 1, height: 1, format: .rgbaf)
        var mean = SIMD4<Double>()
        if !region.isEmpty {
            try renderer.env.limits.check(width: region.width, height: region.height, what: "AreaAverage region")
            let sink = SumSink()
            try renderer.render(inputs[0], rect: region, sink: sink)
            mean = sink.total.withLock { $0 } / Double(region.area)
        }
        out.withUnsafeMutableBytes { $0.storeBytes(of: SIMD4<Float>(mean), as: SIMD4<Float>.self) }
        return MaterializedBuffer(buffer: out, rect: IntRect(x: region.x, y: region.y, width: 1, height: 1))
    }
}

/// A sink that only adds up what it is given.
final class SumSink: RenderSink, Sendable {
    let total = Mutex<SIMD4<Double>>(.zero)
    func beginBand(_ band: IntRect) {}
    func backgroundTask() -> (@Sendable () -> Void)? { nil }
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        var s = SIMD4<Double>()
        for i in 0..<count { s += SIMD4<Double>(pixels[i]) }
        total.withLock { $0 += s }
    }
    func endBand(_ band: IntRect) throws(DaguerreError) {}
    func finish() throws(DaguerreError) {}
    func abort() {}
}
