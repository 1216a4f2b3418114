import DaguerreCore

/// A translation by whole pixels: rows are fetched from the input shifted, nothing is resampled.
final class OffsetNode: ImageNode, @unchecked Sendable {
    let dx: Int, dy: Int
    init(input: ImageNode, dx: Int, dy: Int) {
        self.dx = dx
        self.dy = dy
        super.init(extent: input.extent.offsetBy(dx: Double(dx), dy: Double(dy)), inputs: [input], kind: "offset") { d in
            d.add(dx)
            d.add(dy)
        }
    }
    override var label: String { "offset" }
    override var details: String { "(\(dx), \(dy))" }
    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        IntRect(x: rect.x - dx, y: rect.y - dy, width: rect.width, height: rect.height)
    }
    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        OffsetProducer(rect: rect, dy: dy, input: try context.producer(of: inputs[0], rect: roi(for: rect, input: 0)))
    }
}

final class OffsetProducer: RowProducer {
    let rect: IntRect, dy: Int, input: RowProducer
    init(rect: IntRect, dy: Int, input: RowProducer) {
        self.rect = rect
        self.dy = dy
        self.input = input
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) { input.row(y - dy, into: out) }
}
