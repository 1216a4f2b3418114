import DaguerreCore

/// What a node sees while making the producer of one tile: the render's environment, the
/// pass's source sessions, and the worker's scratch arena.
struct TileContext {
    let env: RenderEnvironment
    let pass: RenderPass
    let arena: Arena

    /// A row buffer of `width` pixels from the arena.
    func rowBuffer(_ width: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        arena.allocate(SIMD4<Float>.self, count: width)
    }

    /// `node`'s pixels over `rect`, stored: a view into its materialized buffer when it has one,
    /// else a per-tile intermediate evaluated into the arena in the node's output format
    /// (or the working format). This is where region nodes get their input (I3).
    func tile(of node: ImageNode, rect: IntRect) throws(DaguerreError) -> TileView {
        if let m = env.materializedBuffer(for: node), m.rect.contains(rect) {
            return m.view
        }
        let format = node.outputFormat ?? env.workingFormat
        let bpr = (rect.width * format.bytesPerPixel + 63) & ~63
        let base = UnsafeMutableRawPointer(arena.allocate(UInt8.self, count: bpr * max(rect.height, 1)))
        let view = TileView(base: base, rect: rect, bytesPerRow: bpr, format: format)
        env.stats.noteIntermediate(node, format: format, rect: rect)
        let producer = try node.makeProducer(rect: rect, context: self)
        let row = rowBuffer(rect.width)
        for y in rect.y..<rect.maxY {
            producer.row(y, into: row)
            view.write(y: y, x: rect.x, count: rect.width, from: row)
        }
        return view
    }

    /// A producer for `node` over `rect` (point-wise consumers pull rows through it).
    func producer(of node: ImageNode, rect: IntRect) throws(DaguerreError) -> RowProducer {
        if let m = env.materializedBuffer(for: node), m.rect.contains(rect.intersection(node.pixelExtent)) {
            return TileRowProducer(view: m.view, rect: rect, extent: node.pixelExtent)
        }
        let dod = node.pixelExtent.intersection(rect)
        if dod.isEmpty { return ZeroProducer(rect: rect) }
        return try node.makeProducer(rect: rect, context: self)
    }
}

/// Rows read from a stored tile, transparent outside `extent` and the tile.
final class TileRowProducer: RowProducer {
    let view: TileView
    let rect: IntRect
    let valid: IntRect
    init(view: TileView, rect: IntRect, extent: IntRect) {
        self.view = view
        self.rect = rect
        self.valid = extent.intersection(view.rect)
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let x0 = max(rect.x, valid.x)
        let x1 = min(rect.maxX, valid.maxX)
        guard y >= valid.y, y < valid.maxY, x1 > x0 else {
            out.update(repeating: .zero, count: rect.width)
            return
        }
        if x0 > rect.x { out.update(repeating: .zero, count: x0 - rect.x) }
        view.read(y: y, x: x0, count: x1 - x0, into: out + (x0 - rect.x))
        if x1 < rect.maxX { (out + (x1 - rect.x)).update(repeating: .zero, count: rect.maxX - x1) }
    }
}
