import DaguerreCore

/// One row segment handed to a point-wise kernel: `pixels` holds input 0's values on entry and
/// the output on exit; `inputs[k]` holds input k's values for the same pixels (k ≥ 1).
public struct PixelSpan {
    public let pixels: UnsafeMutablePointer<SIMD4<Float>>
    public let count: Int
    /// Image coordinates of `pixels[0]`'s top-left corner (its centre is x + 0.5, y + 0.5).
    public let x: Int
    public let y: Int
    public let inputs: UnsafePointer<UnsafeMutablePointer<SIMD4<Float>>>
    public let inputCount: Int

    /// Input `k`'s row (k = 0 is `pixels` itself).
    @inlinable public func input(_ k: Int) -> UnsafeMutablePointer<SIMD4<Float>> { inputs[k] }
}

/// A span kernel: transforms one row segment in place (I3). Kernels see premultiplied linear
/// working-space values.
public typealias SpanFunction = @Sendable (PixelSpan) -> Void

/// A point-wise kernel: every output pixel depends only on the same pixel of each input.
///
/// Chains of these are the engine's fusion: a producer pulls a row from its input's producer
/// into an L1-sized buffer and transforms it in place, so eight chained colour filters are one
/// pass over the data with no intermediate (I3). Generators are point-wise nodes with no input.
final class PointwiseNode: ImageNode, @unchecked Sendable {
    let name: String
    let parameters: String
    /// The interleaved implementation; nil for kernels that exist only as a matrix or in
    /// planar form.
    let span: SpanFunction?
    /// The planar implementation (see ``PlanarChain``); preferred when present.
    let planar: PlanarFunction?
    let declaredFormat: PixelFormat?
    /// When the kernel is a 3×3 matrix on premultiplied linear RGB (alpha kept): exposure,
    /// white balance, saturation, alpha-free colour matrices. Chains of these fold into one
    /// matrix when producers are made, so they cost one matrix however many there are.
    let linear: Matrix3?

    /// `digest` must add every parameter the span function captures.
    init(
        name: String, inputs: [ImageNode], extent: Rect, parameters: String = "", outputFormat: PixelFormat? = nil,
        linear: Matrix3? = nil, planar: PlanarFunction? = nil, digest: (inout DigestBuilder) -> Void, span: SpanFunction? = nil
    ) {
        self.name = name
        self.parameters = parameters
        self.span = span
        self.planar = planar
        self.declaredFormat = outputFormat
        self.linear = linear
        super.init(extent: extent, inputs: inputs, kind: "pointwise:" + name) { d in
            digest(&d)
            d.add(outputFormat?.description ?? "-")
        }
    }

    override var label: String { name }
    override var details: String { parameters }
    override var outputFormat: PixelFormat? { declaredFormat }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        if let chain = PlanarChain(top: self, env: context.env) {
            if chain.stages.count == 1, case .matrix(let m) = chain.stages[0] {
                // One matrix (perhaps folded from several): cheaper interleaved, with no transposes.
                let input = try context.producer(of: chain.base, rect: rect)
                if let source = input as? SourceRowProducer, let scaled = source.scaled(by: m) { return scaled }
                return MatrixProducer(rect: rect, dod: pixelExtent.intersection(rect), matrix: LinearMatrix(m), input: input)
            }
            return PlanarChainProducer(
                rect: rect, dod: pixelExtent.intersection(rect), input: try context.producer(of: chain.base, rect: rect),
                stages: chain.stages, arena: context.arena, top: self, stats: context.env.stats)
        }
        guard span != nil else {
            throw .unsupported(
                feature: "Kernel \(name) outside a planar chain", hint: "internal: the node has no interleaved implementation")
        }
        var producers: [RowProducer] = []
        for i in inputs { producers.append(try context.producer(of: i, rect: rect)) }
        let rows = context.arena.allocate(UnsafeMutablePointer<SIMD4<Float>>.self, count: max(1, inputs.count))
        let off = max(0, pixelExtent.intersection(rect).x - rect.x)
        for k in 1..<max(1, inputs.count) { rows[k] = context.rowBuffer(rect.width) + off }
        return PointwiseProducer(node: self, rect: rect, dod: pixelExtent.intersection(rect), inputs: producers, rows: rows)
    }
}

final class PointwiseProducer: RowProducer {
    let node: PointwiseNode
    let rect: IntRect
    let dod: IntRect
    let inputs: [RowProducer]
    let rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>

    init(
        node: PointwiseNode, rect: IntRect, dod: IntRect, inputs: [RowProducer],
        rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>
    ) {
        self.node = node
        self.rect = rect
        self.dod = dod
        self.inputs = inputs
        self.rows = rows
    }

    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        guard !dod.isEmpty, y >= dod.y, y < dod.maxY else {
            out.update(repeating: .zero, count: rect.width)
            return
        }
        let off = dod.x - rect.x
        if let first = inputs.first { first.row(y, into: out) } else { out.update(repeating: .zero, count: rect.width) }
        // rows[k] (k ≥ 1) are the inputs' full-width scratch rows; the span sees them from the
        // first pixel inside the domain of definition.
        for k in inputs.indices.dropFirst() { inputs[k].row(y, into: rows[k] - off) }
        rows[0] = out + off
        node.span?(
            PixelSpan(pixels: out + off, count: dod.width, x: dod.x, y: y, inputs: UnsafePointer(rows), inputCount: max(1, inputs.count)))
        if off > 0 { out.update(repeating: .zero, count: off) }
        let tail = rect.maxX - dod.maxX
        if tail > 0 { (out + (dod.maxX - rect.x)).update(repeating: .zero, count: tail) }
        if let f = node.declaredFormat { FormatSemantics.apply(f, out + off, count: dod.width) }
    }
}

/// A run of linear point-wise nodes folded into one matrix, applied to interleaved rows.
final class MatrixProducer: RowProducer {
    let rect: IntRect, dod: IntRect
    let matrix: LinearMatrix
    let input: RowProducer
    init(rect: IntRect, dod: IntRect, matrix: LinearMatrix, input: RowProducer) {
        self.rect = rect
        self.dod = dod
        self.matrix = matrix
        self.input = input
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        guard !dod.isEmpty, y >= dod.y, y < dod.maxY else {
            out.update(repeating: .zero, count: rect.width)
            return
        }
        input.row(y, into: out)
        let off = dod.x - rect.x
        matrix.apply(out + off, count: dod.width)
        if off > 0 { out.update(repeating: .zero, count: off) }
        let tail = rect.maxX - dod.maxX
        if tail > 0 { (out + (dod.maxX - rect.x)).update(repeating: .zero, count: tail) }
    }
}

/// What storing in a kernel's declared output format does to values, applied even when the
/// kernel is fused and nothing is stored, so fused and unfused renders agree (K3).
enum FormatSemantics {
    static func apply(_ f: PixelFormat, _ p: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        switch f.layout {
        case .r: for i in 0..<count { p[i] = SIMD4(p[i].x, 0, 0, 1) }
        case .rg: for i in 0..<count { p[i] = SIMD4(p[i].x, p[i].y, 0, 1) }
        default: break
        }
        if f.component == .uint8 {
            for i in 0..<count {
                p[i] = pointwiseMin(pointwiseMax(p[i] * 255, .zero), SIMD4(repeating: 255)).rounded(.toNearestOrEven) / 255
            }
        }
    }
}
