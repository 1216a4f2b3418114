import DaguerreCore
import DaguerreFormats
import Foundation

/// An image recipe (I1; CIImage): immutable, `Sendable`, and lazy. Nothing is decoded or
/// computed until a ``Context`` renders it, and then only the pixels the render needs.
///
/// ```swift
/// let image = try Image(contentsOf: URL(fileURLWithPath: "photo.jpg"))
/// let edited = try image
///     .applyingFilter("GaussianBlur", parameters: ["inputRadius": 2])
///     .applyingFilter("ColorControls", parameters: ["inputSaturation": 1.2])
/// try Context().writeJPEGRepresentation(of: edited, to: URL(fileURLWithPath: "out.jpg"),
///                                       colorSpace: .displayP3, options: [.quality(0.9)])
/// ```
public struct Image: Sendable, CustomStringConvertible {
    let node: ImageNode

    init(_ node: ImageNode) { self.node = node }

    /// The domain of definition: finite for files and buffers, infinite for generators.
    public var extent: Rect { node.extent }
    /// The colour space of a file or buffer image (CIImage.colorSpace); nil for generated and
    /// filtered images, whose values live in the context's working space.
    public var colorSpace: ColorSpace? { node.sourceColorSpace }
    /// A stable digest of the whole recipe (what the intermediate cache keys on).
    public var digest: Digest { node.digest }
    public var description: String { "Image \(extent) \(node.label)" }

    // MARK: Sources

    /// An image file (JPEG, PNG, TIFF or HEIC, 8 or 16 bits, with its embedded ICC profile). Only the
    /// header is read now; rows are decoded when rendered.
    public init(contentsOf url: URL, limits: Limits = .default) throws(DaguerreError) {
        self.init(try FileSourceNode(path: url.path, limits: limits))
    }
    /// An image file held in memory.
    public init(data: [UInt8], limits: Limits = .default) throws(DaguerreError) {
        self.init(try FileSourceNode(data: data, limits: limits))
    }
    /// Rows streamed from a source made by `makeSource` (a RAW develop, a camera buffer
    /// source): the header is read now, rows only when rendered, band by band. `identity` must
    /// change whenever anything that decides the pixels does (it is the source's digest).
    ///
    /// ```swift
    /// let decoded = try Image(identity: "in.png|\(modificationTime)") { ImageFileRowSource(try ImageReader.open(path: "in.png")) }
    /// ```
    public init(identity: String, makeSource: @escaping @Sendable () throws(DaguerreError) -> any RowSource) throws(DaguerreError) {
        self.init(try FileSourceNode(makeSource: makeSource, identity: identity))
    }
    /// Rows streamed from an image file decoder made by `makeDecoder`.
    @available(
        *, deprecated, renamed: "init(identity:makeSource:)", message: "Wrap the decoder in ImageFileRowSource, or implement RowSource."
    )
    public init(identity: String, makeDecoder: @escaping @Sendable () throws(DaguerreError) -> any DaguerreFormats.ImageDecoder)
        throws(DaguerreError)
    {
        try self.init(identity: identity) { () throws(DaguerreError) -> any RowSource in ImageFileRowSource(try makeDecoder()) }
    }
    /// Pixels in memory, in any format. `colorSpace` defaults to the buffer's own, else sRGB for
    /// integer formats and extended linear sRGB for float formats (Core Image's convention).
    public init(buffer: PixelBuffer, colorSpace: ColorSpace? = nil) {
        let space = colorSpace ?? buffer.colorSpace ?? (buffer.format.component.isFloat ? .extendedLinearSRGB : .sRGB)
        self.init(BufferSourceNode(buffer: buffer, colorSpace: space))
    }
    /// Pixels in memory named by `identity` instead of by their bytes: the image's digest (what
    /// cached intermediates are keyed by) hashes the identity, not every byte, so wrapping a
    /// large buffer costs nothing. `identity` must change whenever the pixels do.
    ///
    /// ```swift
    /// let frame = Image(buffer: decoded, identity: "\(moviePath)|\(size)|frame \(k)|\(w)×\(h)")
    /// ```
    public init(buffer: PixelBuffer, colorSpace: ColorSpace? = nil, identity: String) {
        let space = colorSpace ?? buffer.colorSpace ?? (buffer.format.component.isFloat ? .extendedLinearSRGB : .sRGB)
        self.init(BufferSourceNode(buffer: buffer, colorSpace: space, identity: identity))
    }
    /// An infinite image of one colour (ConstantColor).
    public init(color: Color) {
        self.init(GeneratorNode.constant(color))
    }
    /// The empty image: transparent, with an empty extent.
    public static let empty = Image(GeneratorNode.constant(.clear).cropped(to: .null))

    // MARK: Recipes

    /// Only the pixels inside `rect`; transparent outside (I1).
    public func cropped(to rect: Rect) -> Image { Image(node.cropped(to: rect)) }

    /// An infinite image that repeats the edge pixels outward: the usual input to a blur that
    /// should not darken at the borders.
    public func clampedToExtent() -> Image {
        if node.extent.isInfinite { return self }
        return Image(ClampNode(input: node))
    }

    /// The same pixels, sampled without interpolation by whatever transforms or warps them next
    /// (CIImage's `samplingNearest()`, the SampleNearest filter): pixel art and masks stay hard
    /// when scaled or turned.
    ///
    /// ```swift
    /// let sprite = try pixelArt.samplingNearest().transformed(by: AffineTransform2D(scaleX: 8, y: 8))
    /// ```
    public func samplingNearest() -> Image {
        node is NearestSamplingNode ? self : Image(NearestSamplingNode(input: node))
    }

    /// The image under an affine transform, resampled with `interpolation` (bilinear by default,
    /// as Core Image's default sampler; always nearest after ``samplingNearest()``). Whole-pixel
    /// translations move rows without resampling; scale-and-translate transforms use the
    /// separable resampler (antialiased when shrinking).
    public func transformed(by t: AffineTransform2D, interpolation: Interpolation = .bilinear) -> Image {
        if t.isIdentity { return self }
        let interpolation = node is NearestSamplingNode ? .nearest : interpolation
        if t.isAxisAligned, t.a == 1, t.d == 1, t.tx == t.tx.rounded(), t.ty == t.ty.rounded(), abs(t.tx) < 1e12, abs(t.ty) < 1e12 {
            return Image(OffsetNode(input: node, dx: Int(t.tx), dy: Int(t.ty)))
        }
        // The separable resampler averages when shrinking; a nearest-sampled image is point-sampled.
        if t.isAxisAligned, t.a > 0, t.d > 0, interpolation != .nearest {
            return Image(ResampleNode(input: node, sx: t.a, sy: t.d, tx: t.tx, ty: t.ty, kernel: interpolation, name: "affine"))
        }
        guard let inv = t.inverted else { return .empty }
        let radius = interpolation.radius + 1
        let node = SamplingNode(
            name: "affine", inputs: [node], extent: t.apply(to: extent), parameters: "\(t) \(interpolation.rawValue)",
            outputFormat: nil,
            digest: { d in
                d.add([t.a, t.b, t.c, t.d, t.tx, t.ty])
                d.add(interpolation.rawValue)
            },
            roi: { _, r in inv.apply(to: r).insetBy(dx: -radius, dy: -radius) }
        ) { samplers, p in
            let q = inv.apply(x: Double(p.x), y: Double(p.y))
            return samplers[0].sample(SIMD2(Float(q.x), Float(q.y)), kernel: interpolation)
        }
        return Image(node)
    }

    /// This image over `background` (SourceOverCompositing).
    public func composited(over background: Image) -> Image {
        Image(CompositeNode.sourceOver(node, background.node))
    }

    /// Marks the pixels as encoded in `colorSpace` and converts them into the working space (I9):
    /// for data made by a processor or kernel in another space.
    public func matchedToWorkingSpace(from colorSpace: ColorSpace) -> Image {
        Image(ColorMatchNode(input: node, space: colorSpace, direction: .toWorking))
    }
    /// Converts working-space pixels into `colorSpace`'s encoding (I9).
    public func matchedFromWorkingSpace(to colorSpace: ColorSpace) -> Image {
        Image(ColorMatchNode(input: node, space: colorSpace, direction: .fromWorking))
    }
}

extension ImageNode {
    /// Crop: a point-wise pass-through whose extent is the intersection.
    func cropped(to rect: Rect) -> ImageNode {
        let e = extent.intersection(rect)
        return PointwiseNode(
            name: "crop", inputs: [self], extent: e, parameters: "\(rect)",
            digest: { d in d.add([e.minX, e.minY, e.maxX, e.maxY]) }
        ) { _ in }
    }
}
