import DaguerreCore

/// A region node for kernels over a small fixed window (convolutions, the median, edge
/// detectors): each tile's input rows, grown by the window's half-size, are stored once as
/// floats, then every output row is computed from pointers to the rows around it, so a kernel
/// reads its neighbours with plain loads and can work along the row in vector code (SPEC I3:
/// a region node that recomputes its margin per tile).
///
/// Pixels outside the input's extent read as transparent black; kernels that want edges
/// repeated outward take a clamped input (`NeighbourhoodKernel.clamped`).
final class StencilNode: ImageNode, @unchecked Sendable {
    /// Computes `count` output pixels of one row into `out`. `rows[j]` (j in 0 ... 2·ry) points at
    /// the input row `y − ry + j`, at the column of the first output pixel: `rows[j][i + dx]` is
    /// the input pixel at column offset dx (−rx ... rx) from output pixel i.
    typealias RowBody =
        @Sendable (_ rows: UnsafePointer<UnsafePointer<SIMD4<Float>>>, _ out: UnsafeMutablePointer<SIMD4<Float>>, _ count: Int) -> Void

    let name: String
    let parameters: String
    let rx: Int
    let ry: Int
    let body: RowBody

    init(
        name: String, input: ImageNode, extent: Rect, parameters: String, rx: Int, ry: Int, digest: (inout DigestBuilder) -> Void,
        body: @escaping RowBody
    ) {
        self.name = name
        self.parameters = parameters
        self.rx = rx
        self.ry = ry
        self.body = body
        super.init(extent: extent, inputs: [input], kind: "stencil:" + name) { d in
            d.add([Double(rx), Double(ry)])
            digest(&d)
        }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { name }
    override var details: String { parameters }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        rect.insetBy(dx: -rx, dy: -ry).intersection(inputs[0].pixelExtent)
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let dod = rect.intersection(pixelExtent)
        guard !dod.isEmpty else { return ZeroProducer(rect: rect) }
        // The window's rows over the output's columns grown by rx, transparent where the input
        // has no pixels.
        let grown = dod.insetBy(dx: -rx, dy: -ry)
        let stride = grown.width
        let store = context.arena.allocate(SIMD4<Float>.self, count: stride * grown.height)
        store.initialize(repeating: .zero, count: stride * grown.height)
        let valid = grown.intersection(inputs[0].pixelExtent)
        if !valid.isEmpty {
            let input = try context.producer(of: inputs[0], rect: valid)
            for y in valid.y..<valid.maxY {
                input.row(y, into: store + (y - grown.y) * stride + (valid.x - grown.x))
            }
        }
        let pointers = context.arena.allocate(UnsafePointer<SIMD4<Float>>.self, count: 2 * ry + 1)
        return StencilProducer(rect: rect, dod: dod, store: store, stride: stride, rx: rx, ry: ry, pointers: pointers, body: body)
    }
}

final class StencilProducer: RowProducer {
    let rect: IntRect, dod: IntRect
    let store: UnsafeMutablePointer<SIMD4<Float>>
    let stride: Int, rx: Int, ry: Int
    let pointers: UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>
    let body: StencilNode.RowBody

    init(
        rect: IntRect, dod: IntRect, store: UnsafeMutablePointer<SIMD4<Float>>, stride: Int, rx: Int, ry: Int,
        pointers: UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>, body: @escaping StencilNode.RowBody
    ) {
        self.rect = rect
        self.dod = dod
        self.store = store
        self.stride = stride
        self.rx = rx
        self.ry = ry
        self.pointers = pointers
        self.body = body
    }

    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        guard clear(outside: dod, row: y, out) else { return }
        // Stored row r holds input row dod.y − ry + r, starting at column dod.x − rx.
        for j in 0...(2 * ry) { pointers[j] = UnsafePointer(store + (y - dod.y + j) * stride + rx) }
        body(pointers, out + (dod.x - rect.x), dod.width)
    }
}
