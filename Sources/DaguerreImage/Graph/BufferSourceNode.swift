import DaguerreCore

/// Pixels already in memory, in any supported format and colour space (I1).
final class BufferSourceNode: ImageNode, @unchecked Sendable {
    let buffer: PixelBuffer
    let space: ColorSpace?

    /// `identity`, when given, stands for the bytes in the digest: the caller vouches that it
    /// changes whenever the pixels do (a decoded movie frame: the movie, the frame, the size),
    /// so a frame is not hashed byte by byte.
    init(buffer: PixelBuffer, colorSpace: ColorSpace?, origin: (x: Int, y: Int) = (0, 0), identity: String? = nil) {
        self.buffer = buffer
        self.space = colorSpace
        super.init(
            extent: Rect(x: Double(origin.x), y: Double(origin.y), width: Double(buffer.width), height: Double(buffer.height)),
            inputs: [], kind: "buffer"
        ) { d in
            // Buffers are immutable once wrapped, so their bytes are hashed once here.
            d.add(buffer.format.description)
            d.add(buffer.width)
            d.add(buffer.height)
            d.add(colorSpace?.name ?? "none")
            if let identity { d.add("identity \(identity)") } else { buffer.withUnsafeBytes { d.add(bytes: $0) } }
        }
    }

    override var evaluation: Evaluation { .source }
    override var label: String { "buffer \(buffer.width)×\(buffer.height)" }
    override var details: String { "\(buffer.format) \(space?.name ?? "no colour space")" }
    override var sourceColorSpace: ColorSpace? { space }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let conv = try context.pass.converter(for: self, format: buffer.format, alpha: buffer.alpha, space: space)
        let b = buffer
        let ext = pixelExtent
        return SourceRowProducer(rect: rect, extent: ext, converter: conv) { y in (b.rowAddress(y - ext.y), ext.x..<ext.maxX) }
    }
}
