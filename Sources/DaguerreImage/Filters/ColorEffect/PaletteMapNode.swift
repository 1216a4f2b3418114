import DaguerreCore

/// Each pixel replaced by the nearest colour of a palette (Palettize; SPEC I4). Per tile the
/// palette is read once and placed once (linear RGB or L*a*b*); each pixel is then placed and
/// compared with every colour (``KMeansSink/nearest(_:_:)``: squared distance, the first of
/// equals) and takes that colour's unpremultiplied RGB at its own alpha.
final class PaletteMapNode: ImageNode, @unchecked Sendable {
    let perceptual: Bool

    init(input: ImageNode, palette: ImageNode, perceptual: Bool) {
        self.perceptual = perceptual
        super.init(extent: input.extent, inputs: [input, palette], kind: "palettize") { d in d.add(perceptual ? 1 : 0) }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { "palettize" }
    override var details: String { perceptual ? "perceptual" : "" }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        index == 0 ? rect.intersection(inputs[0].pixelExtent) : inputs[1].pixelExtent
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        var pixels = [SIMD4<Float>](repeating: .zero, count: rect.width * rect.height)
        let area = roi(for: rect.intersection(pixelExtent), input: 0)
        let cells = inputs[1].pixelExtent
        guard !area.isEmpty, !cells.isEmpty else { return BufferProducer(rect: rect, pixels: pixels) }
        let paletteView = try context.tile(of: inputs[1], rect: cells)
        var colours: [SIMD3<Float>] = []
        for y in cells.y..<cells.maxY {
            for x in cells.x..<cells.maxX {
                let c = SpanMath.unpremultiply(paletteView.pixel(x: x, y: y))
                colours.append(SIMD3(c.x, c.y, c.z))
            }
        }
        let places = colours.map { CIELab.place(SIMD4($0, 1), perceptual: perceptual) }
        let view = try context.tile(of: inputs[0], rect: area)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let v = view.pixel(x: x, y: y)
                guard v.w > 0 else { continue }
                let k = KMeansSink.nearest(CIELab.place(SpanMath.unpremultiply(v), perceptual: perceptual), places)
                pixels[(y - rect.y) * rect.width + (x - rect.x)] = SIMD4(colours[k] * v.w, v.w)
            }
        }
        return BufferProducer(rect: rect, pixels: pixels)
    }
}
