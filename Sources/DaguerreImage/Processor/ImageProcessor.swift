import DaguerreCore

/// What a processor block reads: its input's pixels over `region` (K1).
public struct ImageProcessorInput: @unchecked Sendable {
    // Safety: valid only during the processor call; the renderer owns the memory.
    public let baseAddress: UnsafeRawPointer
    public let bytesPerRow: Int
    /// The rectangle of the image these pixels cover (row 0 is `region.minY`).
    public let region: Rect
    public let format: PixelFormat
}

/// Where a processor block writes: `region` of its output, in `format` (K1).
public struct ImageProcessorOutput: @unchecked Sendable {
    public let baseAddress: UnsafeMutableRawPointer
    public let bytesPerRow: Int
    public let region: Rect
    public let format: PixelFormat
}

/// Custom CPU code inside a recipe (K1; CIImageProcessor): the seed's answer for algorithms a
/// data-parallel kernel cannot express, such as an integral image.
///
/// The node's output is computed once per render for everything the render needs (it is a
/// full intermediate, printed on a line of its own at print-tree level 8) and cached under
/// its digest, so `argumentDigest` must change whenever a parameter the block uses changes.
///
/// ```swift
/// let integral = ImageProcessor(
///     extent: image.extent, description: "integralImage", argumentDigest: 0,
///     inputFormat: .rgba8, outputFormat: .rgbaf,
///     roiCallback: { rect in Rect(minX: 0, minY: 0, maxX: rect.maxX, maxY: rect.maxY) }
/// ) { input, output in /* running sums from input.baseAddress into output.baseAddress */ }
/// .apply(to: image)
/// ```
public struct ImageProcessor: Sendable {
    public typealias Block = @Sendable (ImageProcessorInput, ImageProcessorOutput) throws -> Void

    public let extent: Rect
    public let description: String
    public let argumentDigest: UInt64
    /// The format the block receives its input in; nil means the context's working format.
    public let inputFormat: PixelFormat?
    /// The format of the block's output; nil means the working format.
    public let outputFormat: PixelFormat?
    public let roiCallback: @Sendable (Rect) -> Rect
    public let processor: Block

    public init(
        extent: Rect, description: String, argumentDigest: UInt64, inputFormat: PixelFormat? = nil,
        outputFormat: PixelFormat? = nil, roiCallback: @escaping @Sendable (Rect) -> Rect, processor: @escaping Block
    ) {
        self.extent = extent
        self.description = description
        self.argumentDigest = argumentDigest
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.roiCallback = roiCallback
        self.processor = processor
    }

    /// The processor's output image, with `image` as its input.
    public func apply(to image: Image) -> Image { Image(ProcessorNode(processor: self, input: image.node)) }
}

extension Image {
    /// Seed spelling of ``ImageProcessor`` (K1): `image.withExtent(...) { input, output in ... }`.
    public func withExtent(
        _ extent: Rect, processorDescription: String, argumentDigest: UInt64,
        inputFormat: PixelFormat? = nil, outputFormat: PixelFormat? = nil,
        roiCallback: @escaping @Sendable (Rect) -> Rect,
        processor: @escaping ImageProcessor.Block
    ) -> Image {
        ImageProcessor(
            extent: extent, description: processorDescription, argumentDigest: argumentDigest,
            inputFormat: inputFormat, outputFormat: outputFormat, roiCallback: roiCallback, processor: processor
        ).apply(to: self)
    }
}

/// The recipe node of an ``ImageProcessor``: materialized, never tiled.
final class ProcessorNode: ImageNode, MaterializingNode, @unchecked Sendable {
    let processor: ImageProcessor

    init(processor: ImageProcessor, input: ImageNode) {
        self.processor = processor
        super.init(extent: processor.extent, inputs: [input], kind: "processor") { d in
            d.add(processor.description)
            d.add(processor.argumentDigest)
            d.add(processor.inputFormat?.description ?? "-")
            d.add(processor.outputFormat?.description ?? "-")
        }
    }

    override var evaluation: Evaluation { .materialized }
    override var label: String { "processor \(processor.description)" }
    override var details: String { "digest \(digest)" }
    override var outputFormat: PixelFormat? { processor.outputFormat }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        processor.roiCallback(Rect(rect)).intersection(inputs[0].extent).integral
    }

    func materialize(rect: IntRect, renderer: Renderer) throws(DaguerreError) -> MaterializedBuffer {
        let env = renderer.env
        let inFormat = processor.inputFormat ?? env.workingFormat
        let outFormat = processor.outputFormat ?? env.workingFormat
        let inRect = roi(for: rect, input: 0)
        let input = try renderer.renderToBuffer(inputs[0], rect: inRect, format: inFormat)
        var output = try PixelBuffer(width: rect.width, height: rect.height, format: outFormat, limits: env.limits)
        let bpr = output.bytesPerRow
        do {
            try output.withUnsafeMutableBytes { out in
                let inArg = ImageProcessorInput(
                    baseAddress: input.rowAddress(0), bytesPerRow: input.bytesPerRow,
                    region: Rect(inRect), format: inFormat)
                let outArg = ImageProcessorOutput(baseAddress: out.baseAddress!, bytesPerRow: bpr, region: Rect(rect), format: outFormat)
                try processor.processor(inArg, outArg)
            }
        } catch let e as DaguerreError {
            throw e
        } catch {
            throw .processorFailed(name: processor.description, reason: "\(error)")
        }
        return MaterializedBuffer(buffer: output, rect: rect)
    }
}
