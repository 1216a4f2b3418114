import DaguerreCore

/// A region node whose output pixels sample their inputs anywhere inside a region of interest:
/// general kernels, warp kernels and rotated or sheared transforms. Each input's region of
/// interest is stored per tile (or read in place when the input is materialized, as the
/// integral image of K2 is), then every output pixel runs the body.
final class SamplingNode: ImageNode, @unchecked Sendable {
    typealias Body = @Sendable (_ samplers: [Sampler], _ dest: SIMD2<Float>) -> SIMD4<Float>
    typealias ROI = @Sendable (_ input: Int, _ rect: Rect) -> Rect

    let name: String
    let parameters: String
    let body: Body
    let roiCallback: ROI
    let declaredFormat: PixelFormat?

    init(
        name: String, inputs: [ImageNode], extent: Rect, parameters: String, outputFormat: PixelFormat?,
        digest: (inout DigestBuilder) -> Void, roi: @escaping ROI, body: @escaping Body
    ) {
        self.name = name
        self.parameters = parameters
        self.body = body
        self.roiCallback = roi
        self.declaredFormat = outputFormat
        super.init(extent: extent, inputs: inputs, kind: "sampling:" + name) { d in
            digest(&d)
            d.add(outputFormat?.description ?? "-")
        }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { name }
    override var details: String { parameters }
    override var outputFormat: PixelFormat? { declaredFormat }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        roiCallback(index, Rect(rect)).intersection(inputs[index].extent).integral
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        var samplers: [Sampler] = []
        for (i, input) in inputs.enumerated() {
            let r = roi(for: rect.intersection(pixelExtent), input: i)
            if r.isEmpty {
                samplers.append(
                    Sampler(
                        view: TileView(
                            base: UnsafeMutableRawPointer(context.arena.allocate(UInt8.self, count: 64)),
                            rect: .zero, bytesPerRow: 0, format: .rgbaf), extent: .zero))
            } else {
                samplers.append(
                    Sampler(view: try context.tile(of: input, rect: r), extent: input.pixelExtent, nearest: input is NearestSamplingNode))
            }
        }
        return SamplingProducer(rect: rect, dod: pixelExtent.intersection(rect), samplers: samplers, body: body, format: declaredFormat)
    }
}

final class SamplingProducer: RowProducer {
    let rect: IntRect, dod: IntRect
    let samplers: [Sampler]
    let body: SamplingNode.Body
    let format: PixelFormat?
    init(rect: IntRect, dod: IntRect, samplers: [Sampler], body: @escaping SamplingNode.Body, format: PixelFormat?) {
        self.rect = rect
        self.dod = dod
        self.samplers = samplers
        self.body = body
        self.format = format
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        out.update(repeating: .zero, count: rect.width)
        guard !dod.isEmpty, y >= dod.y, y < dod.maxY else { return }
        let fy = Float(y) + 0.5
        for x in dod.x..<dod.maxX { out[x - rect.x] = body(samplers, SIMD2(Float(x) + 0.5, fy)) }
        if let format { FormatSemantics.apply(format, out + (dod.x - rect.x), count: dod.width) }
    }
}
