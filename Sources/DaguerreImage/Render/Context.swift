import DaguerreCore
import DaguerreFormats
import Foundation
import Synchronization

/// Renders images (I6; CIContext). Make one and reuse it: it keeps the intermediate cache and
/// the scratch memory of its workers.
///
/// ```swift
/// // The seed's background export: no intermediate cache, low priority, Display P3 out.
/// let context = try Context(options: .init(cacheIntermediates: false, lowPriority: true))
/// try context.writeJPEGRepresentation(of: image, to: url, colorSpace: .displayP3, options: [.quality(0.9)])
/// ```
public final class Context: Sendable {
    public struct Options: Sendable {
        /// Format of stored intermediates: RGBAh (default), RGBAf or RGBA8 (I5, I6).
        public var workingFormat: PixelFormat
        /// The space filters work in; nil turns colour management off (I2, I6).
        public var workingColorSpace: ColorSpace?
        /// Keep materialized intermediates (processor outputs) between renders (I6).
        public var cacheIntermediates: Bool
        /// Background work: fewer workers, at utility priority (I6).
        public var lowPriority: Bool
        /// Bound of the intermediate cache, in bytes.
        public var cacheLimitBytes: Int
        /// Tile size in output pixels.
        public var tileWidth: Int
        public var tileHeight: Int
        /// Worker count; nil means one per core.
        public var maxThreads: Int?
        public var limits: Limits

        public init(
            workingFormat: PixelFormat = .rgbah, workingColorSpace: ColorSpace? = .extendedLinearSRGB,
            cacheIntermediates: Bool = true, lowPriority: Bool = false, cacheLimitBytes: Int = 512 << 20,
            tileWidth: Int = 512, tileHeight: Int = 64, maxThreads: Int? = nil, limits: Limits = .default
        ) {
            self.workingFormat = workingFormat
            self.workingColorSpace = workingColorSpace
            self.cacheIntermediates = cacheIntermediates
            self.lowPriority = lowPriority
            self.cacheLimitBytes = cacheLimitBytes
            self.tileWidth = tileWidth
            self.tileHeight = tileHeight
            self.maxThreads = maxThreads
            self.limits = limits
        }
    }

    public let options: Options
    let cache: IntermediateCache
    private let reports = Mutex<RenderReport?>(nil)

    /// What the latest render through this context did: passes, intermediates, counters (K4).
    public var lastRenderReport: RenderReport? { reports.withLock { $0 } }
    let arenas = ArenaPool()

    public init(options: Options = Options()) throws(DaguerreError) {
        guard [PixelFormat.rgbah, .rgbaf, .rgba8].contains(options.workingFormat) else {
            throw .invalidArgument(what: "Working format \(options.workingFormat)", problem: "it must be RGBAh, RGBAf or RGBA8")
        }
        if let ws = options.workingColorSpace, !ws.isRGB || !ws.isLinear {
            throw .invalidArgument(
                what: "Working colour space \(ws.name)",
                problem: "it must be a linear RGB space (extended linear sRGB, linear Display P3, ...)")
        }
        guard options.tileWidth >= 16, options.tileHeight >= 4 else {
            throw .invalidArgument(what: "Tile size \(options.tileWidth)×\(options.tileHeight)", problem: "tiles must be at least 16×4")
        }
        self.options = options
        cache = IntermediateCache(limitBytes: options.cacheLimitBytes)
    }

    /// Empties the intermediate cache and releases idle scratch memory.
    public func clearCaches() {
        cache.removeAll()
        arenas.trim()
    }

    /// Bytes held by the intermediate cache.
    public var cachedBytes: Int { cache.byteCount }

    var workerCount: Int {
        let cores = WorkerPool.processorCount
        let n = options.maxThreads ?? cores
        return max(1, options.lowPriority ? max(1, n / 2) : n)
    }

    func makeEnvironment() -> RenderEnvironment {
        RenderEnvironment(
            workingFormat: options.workingFormat, workingSpace: options.workingColorSpace,
            cache: options.cacheIntermediates ? cache : nil, limits: options.limits)
    }

    /// Renders through the scheduler, printing the graph when DAGUERRE_PRINT_TREE asks (K4).
    func render(_ image: Image, rect: IntRect, sink: RenderSink, output: String) throws(DaguerreError) {
        let env = makeEnvironment()
        let printer = TreePrinter.fromEnvironment()
        printer?.printRecipe(image.node, output: output, env: env)
        let renderer = Renderer(
            env: env, arenas: arenas, workers: workerCount,
            tileWidth: options.tileWidth, tileHeight: options.tileHeight)
        if options.lowPriority {
            // Background work (the seed's background export): utility QoS for the calling
            // thread and the dispatch workers it starts.
            var failure: DaguerreError?
            DispatchQueue.global(qos: .utility).sync {
                do throws(DaguerreError) { try renderer.render(image.node, rect: rect, sink: sink) } catch { failure = error }
            }
            if let failure { throw failure }
        } else {
            try renderer.render(image.node, rect: rect, sink: sink)
        }
        let report = RenderReport(root: image.node, rect: rect, output: output, env: env, renderer: renderer)
        reports.withLock { $0 = report }
        printer?.printProgram(report)
    }

    func checkedRect(_ image: Image, _ bounds: Rect?) throws(DaguerreError) -> IntRect {
        let b = bounds ?? image.extent
        guard !b.isInfinite else {
            throw .invalidArgument(
                what: "Rendering an image with an infinite extent", problem: "pass finite bounds, or crop the image first (cropped(to:))")
        }
        let r = b.integral
        guard !r.isEmpty else { throw .invalidArgument(what: "Render bounds \(b)", problem: "they are empty") }
        try options.limits.check(width: r.width, height: r.height, what: "Render")
        return r
    }

    // MARK: Rendering to memory (I7)

    /// Renders `bounds` of `image` into caller-owned memory, in `format` and `colorSpace`
    /// (nil: the working space, unconverted). RGBA formats are premultiplied.
    public func render(
        _ image: Image, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: Rect,
        format: PixelFormat, colorSpace: ColorSpace?
    ) throws(DaguerreError) {
        let r = try checkedRect(image, bounds)
        guard rowBytes >= r.width * format.bytesPerPixel else {
            throw .invalidArgument(
                what: "rowBytes \(rowBytes)", problem: "a row of \(r.width) \(format) pixels needs \(r.width * format.bytesPerPixel) bytes")
        }
        let conv = try OutputConverter(
            format: format, alpha: format.hasAlpha ? .premultiplied : .none,
            destination: colorSpace, working: colorSpace == nil ? nil : options.workingColorSpace,
            workingFormat: options.workingFormat)
        try render(
            image, rect: r, sink: BufferSink(base: data, bytesPerRow: rowBytes, origin: (r.x, r.y), converter: conv),
            output: "bitmap \(format)")
    }

    /// Renders into `buffer` (its format, its size) from `bounds`' origin.
    public func render(_ image: Image, to buffer: inout PixelBuffer, bounds: Rect? = nil, colorSpace: ColorSpace?) throws(DaguerreError) {
        let origin = (bounds ?? image.extent)
        let b = Rect(
            x: origin.isInfinite ? 0 : origin.minX, y: origin.isInfinite ? 0 : origin.minY,
            width: Double(buffer.width), height: Double(buffer.height))
        let bpr = buffer.bytesPerRow
        let format = buffer.format
        buffer.colorSpace = colorSpace
        try buffer.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) throws(DaguerreError) in
            try render(image, toBitmap: raw.baseAddress!, rowBytes: bpr, bounds: b, format: format, colorSpace: colorSpace)
        }
    }

    /// Renders now into a new buffer (immediate rendering).
    public func createBuffer(
        _ image: Image, bounds: Rect? = nil, format: PixelFormat = .rgba8,
        colorSpace: ColorSpace? = .sRGB
    ) throws(DaguerreError) -> PixelBuffer {
        let r = try checkedRect(image, bounds)
        var buffer = try PixelBuffer(width: r.width, height: r.height, format: format, colorSpace: colorSpace, limits: options.limits)
        try render(image, to: &buffer, bounds: Rect(r), colorSpace: colorSpace)
        return buffer
    }

    /// A rendered image that renders when read (deferred) or now (immediate) (I7).
    public func createRenderedImage(
        _ image: Image, bounds: Rect? = nil, format: PixelFormat = .rgbah,
        colorSpace: ColorSpace? = .extendedLinearSRGB, deferred: Bool = true
    ) throws(DaguerreError) -> RenderedImage {
        let r = try checkedRect(image, bounds)
        let made = RenderedImage(context: self, image: image, rect: r, format: format, colorSpace: colorSpace)
        if !deferred { _ = try made.buffer() }
        return made
    }
}
