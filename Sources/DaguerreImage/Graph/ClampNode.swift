import DaguerreCore

/// `clampedToExtent()`: an infinite image that repeats the edge pixels of its input outward
/// (I1). Streams rows; no intermediate.
final class ClampNode: ImageNode, @unchecked Sendable {
    init(input: ImageNode) {
        super.init(extent: .infinite, inputs: [input], kind: "clamp") { _ in }
    }
    override var label: String { "clampToExtent" }
    override var details: String { "\(inputs[0].pixelExtent)" }

    /// The input rectangle whose edge pixels cover `rect` once clamped.
    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        let e = inputs[0].pixelExtent
        guard !e.isEmpty else { return .zero }
        func cl(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(max(v, lo), hi) }
        let x0 = cl(rect.x, e.x, e.maxX - 1)
        let x1 = cl(rect.maxX - 1, e.x, e.maxX - 1) + 1
        let y0 = cl(rect.y, e.y, e.maxY - 1)
        let y1 = cl(rect.maxY - 1, e.y, e.maxY - 1) + 1
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let r = roi(for: rect, input: 0)
        guard !r.isEmpty else { return ZeroProducer(rect: rect) }
        let input = try context.producer(of: inputs[0], rect: r)
        return ClampProducer(rect: rect, roi: r, input: input, scratch: context.rowBuffer(r.width))
    }
}

final class ClampProducer: RowProducer {
    let rect: IntRect, roi: IntRect
    let input: RowProducer
    let scratch: UnsafeMutablePointer<SIMD4<Float>>
    init(rect: IntRect, roi: IntRect, input: RowProducer, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        self.rect = rect
        self.roi = roi
        self.input = input
        self.scratch = scratch
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        input.row(min(max(y, roi.y), roi.maxY - 1), into: scratch)
        let left = scratch[0]
        let right = scratch[roi.width - 1]
        var i = 0
        var x = rect.x
        while x < roi.x && x < rect.maxX {
            out[i] = left
            i += 1
            x += 1
        }
        let n = min(rect.maxX, roi.maxX) - x
        if n > 0 {
            (out + i).update(from: scratch + (x - roi.x), count: n)
            i += n
            x += n
        }
        while x < rect.maxX {
            out[i] = right
            i += 1
            x += 1
        }
    }
}
