import DaguerreCore

/// A point-wise node with no input: constant colours, gradients, colour wheels (I4).
///
/// Its colours are given in a colour space (sRGB by default, like CIColor), so the span is
/// made per render for the context's working space: `make(workingSpace)` converts the
/// colours once, and the span only interpolates.
final class GeneratorNode: ImageNode, @unchecked Sendable {
    let name: String
    let parameters: String
    let make: @Sendable (ColorSpace?) -> SpanFunction

    init(
        name: String, extent: Rect = .infinite, parameters: String, digest: (inout DigestBuilder) -> Void,
        make: @escaping @Sendable (ColorSpace?) -> SpanFunction
    ) {
        self.name = name
        self.parameters = parameters
        self.make = make
        super.init(extent: extent, inputs: [], kind: "generator:" + name, digestParts: digest)
    }

    override var evaluation: Evaluation { .source }
    override var label: String { name }
    override var details: String { parameters }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        GeneratorProducer(
            rect: rect, dod: pixelExtent.intersection(rect), span: make(context.env.workingSpace),
            rows: context.arena.allocate(UnsafeMutablePointer<SIMD4<Float>>.self, count: 1))
    }

    static func constant(_ c: Color) -> GeneratorNode {
        GeneratorNode(
            name: "constantColor", parameters: "\(c)",
            digest: { d in
                d.add([c.red, c.green, c.blue, c.alpha])
                d.add(c.colorSpace)
            }
        ) { working in
            let v = c.premultiplied(in: working)
            return { span in span.pixels.update(repeating: v, count: span.count) }
        }
    }
}

final class GeneratorProducer: RowProducer {
    let rect: IntRect, dod: IntRect
    let span: SpanFunction
    let rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>
    init(rect: IntRect, dod: IntRect, span: @escaping SpanFunction, rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>>) {
        self.rect = rect
        self.dod = dod
        self.span = span
        self.rows = rows
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        out.update(repeating: .zero, count: rect.width)
        guard !dod.isEmpty, y >= dod.y, y < dod.maxY else { return }
        let p = out + (dod.x - rect.x)
        rows[0] = p
        span(PixelSpan(pixels: p, count: dod.width, x: dod.x, y: y, inputs: UnsafePointer(rows), inputCount: 1))
    }
}

/// Porter-Duff compositing as point-wise nodes.
enum CompositeNode {
    /// `source` over `background`: s + b·(1 − s.a), premultiplied.
    static func sourceOver(_ source: ImageNode, _ background: ImageNode) -> ImageNode {
        PointwiseNode(
            name: "sourceOver", inputs: [source, background], extent: source.extent.union(background.extent),
            digest: { _ in }
        ) { span in
            let s = span.pixels
            let b = span.input(1)
            for i in 0..<span.count { s[i] = s[i] + b[i] * (1 - s[i].w) }
        }
    }
}
