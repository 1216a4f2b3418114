import DaguerreCore
import DaguerreFormats

/// Where rendered rows go: a caller's buffer or a streaming file encoder (I7).
///
/// Workers call ``put`` concurrently for disjoint pieces of the current band; the renderer calls
/// ``endBand(_:)`` between bands on one thread, and ``finish()`` or ``abort()`` at the end.
protocol RenderSink: AnyObject, Sendable {
    /// Whether the rows must arrive band by band (a streaming encoder); a sink that only fills
    /// memory takes every tile of the render in one parallel sweep, with no wait between bands.
    var needsBands: Bool { get }
    func beginBand(_ band: IntRect)
    /// Work left from the previous band (encoding it), run beside the current band's tiles.
    func backgroundTask() -> (@Sendable () -> Void)?
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>)
    func endBand(_ band: IntRect) throws(DaguerreError)
    func finish() throws(DaguerreError)
    func abort()
}

/// A sink that only gathers what it is given (reductions, collectors): nothing to do between
/// bands, at the end or on an abort.
protocol GatheringSink: RenderSink {}

extension GatheringSink {
    /// Kept band by band: their totals then gather in the order they always have.
    var needsBands: Bool { true }
    func beginBand(_ band: IntRect) {}
    func backgroundTask() -> (@Sendable () -> Void)? { nil }
    func endBand(_ band: IntRect) throws(DaguerreError) {}
    func finish() throws(DaguerreError) {}
    func abort() {}
}

/// A sink that can also take rows as planes, so a planar run at the top of the pass hands its
/// planes over with no transpose out. Only sinks that can pack planes conform, so there is no
/// entry point that a sink could not honour.
protocol PlanarRenderSink: RenderSink {
    /// Whether ``put(y:x:planes:scratch:)`` may be called for this render: the output converter
    /// packs planes (see ``OutputConverter/packsPlanes``).
    var acceptsPlanes: Bool { get }
    /// `planes.count` pixels from planes (unpremultiplied colour and alpha, as a planar run
    /// leaves them); the planes may be overwritten. `scratch` holds `3 × planes.count` values.
    func put(y: Int, x: Int, planes: PlanarSpan, scratch: UnsafeMutablePointer<UInt16>)
}

/// A sink whose rows are packed by an ``OutputConverter`` into memory it can point at, so a tile
/// whose rows need no conversion of their own (a bare RAW develop's) is packed straight from
/// the source's stored rows (``OutputConverter/convert(floatRGB:count:into:)``).
protocol PackingRenderSink: RenderSink {
    var converter: OutputConverter { get }
    /// Where the packed pixel (x, y) of the current band goes.
    func destination(y: Int, x: Int) -> UnsafeMutableRawPointer
}

/// Renders straight into memory the caller owns (`render(_:toBitmap:...)`), or into a
/// ``PixelBuffer``. No band buffer: tiles write their pixels in place.
final class BufferSink: PlanarRenderSink, PackingRenderSink, @unchecked Sendable {
    // Safety: workers write disjoint rectangles of `base`, which the caller keeps alive for the
    // duration of the render call.
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let origin: (x: Int, y: Int)
    let converter: OutputConverter

    init(base: UnsafeMutableRawPointer, bytesPerRow: Int, origin: (x: Int, y: Int), converter: OutputConverter) {
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.origin = origin
        self.converter = converter
    }
    func destination(y: Int, x: Int) -> UnsafeMutableRawPointer {
        base + (y - origin.y) * bytesPerRow + (x - origin.x) * converter.format.bytesPerPixel
    }
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        converter.convert(pixels, count: count, into: destination(y: y, x: x))
    }
    var acceptsPlanes: Bool { converter.packsPlanes }
    func put(y: Int, x: Int, planes: PlanarSpan, scratch: UnsafeMutablePointer<UInt16>) {
        converter.convert(planes: planes, scratch: scratch, into: destination(y: y, x: x))
    }
    var needsBands: Bool { false }
    func beginBand(_ band: IntRect) {}
    func backgroundTask() -> (@Sendable () -> Void)? { nil }
    func endBand(_ band: IntRect) throws(DaguerreError) {}
    func finish() throws(DaguerreError) {}
    func abort() {}
}

/// Streams bands of rows into a file encoder: no full-size copy of the output is ever held.
///
/// Two band buffers alternate: while the workers fill one, the previous band is encoded from
/// the other by a task the renderer runs beside the tiles, so encoding overlaps computing.
/// Bands reach the encoder in order; an encoder error surfaces at the next band or at `finish`.
final class EncoderSink: PlanarRenderSink, PackingRenderSink, @unchecked Sendable {
    // Safety: workers write disjoint parts of `buffers[current]` during a band; the background
    // task reads only `buffers[current ^ 1]`; `endBand`, `finish` and `abort` run alone between
    // bands, after every task of the band has returned.
    let encoder: any ImageEncoder
    let converter: OutputConverter
    let width: Int
    let originX: Int
    private var buffers: [UnsafeMutableRawPointer]
    private var bandRows: Int
    private var current = 0
    private let rowBytes: Int
    private var bandY = 0
    /// Rows of the filled buffer waiting to be encoded.
    private var ready: Int?
    private var writeError: DaguerreError?
    var needsBands: Bool { true }

    init(encoder: any ImageEncoder, converter: OutputConverter, width: Int, originX: Int, maxBandRows: Int) {
        self.encoder = encoder
        self.converter = converter
        self.width = width
        self.originX = originX
        let rb = width * converter.format.bytesPerPixel
        rowBytes = rb
        bandRows = max(1, maxBandRows)
        buffers = (0..<2).map { _ in UnsafeMutableRawPointer.allocate(byteCount: rb * max(1, maxBandRows), alignment: 64) }
    }
    deinit { for b in buffers { b.deallocate() } }

    func beginBand(_ rect: IntRect) {
        bandY = rect.y
        if rect.height > bandRows {
            // Grow the buffer being filled; the other keeps the band waiting to be encoded.
            buffers[current].deallocate()
            buffers[current] = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * rect.height, alignment: 64)
            bandRows = rect.height
        }
    }
    func backgroundTask() -> (@Sendable () -> Void)? {
        guard let rows = ready else { return nil }
        ready = nil
        let band = UnsafeTransfer(UnsafeRawPointer(buffers[current ^ 1]))
        let me = UnsafeTransfer(self)
        let stride = rowBytes
        return {
            do throws(DaguerreError) {
                try me.value.encoder.writeRows(band.value, bytesPerRow: stride, count: rows)
            } catch {
                me.value.writeError = error
            }
        }
    }
    func destination(y: Int, x: Int) -> UnsafeMutableRawPointer {
        buffers[current] + (y - bandY) * rowBytes + (x - originX) * converter.format.bytesPerPixel
    }
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        converter.convert(pixels, count: count, into: destination(y: y, x: x))
    }
    var acceptsPlanes: Bool { converter.packsPlanes }
    func put(y: Int, x: Int, planes: PlanarSpan, scratch: UnsafeMutablePointer<UInt16>) {
        converter.convert(planes: planes, scratch: scratch, into: destination(y: y, x: x))
    }
    func endBand(_ rect: IntRect) throws(DaguerreError) {
        if let e = writeError { throw e }
        if ready != nil { flush() }  // the renderer did not run the task (no next band)
        ready = rect.height
        current ^= 1
    }
    private func flush() {
        if let task = backgroundTask() { task() }
    }
    func finish() throws(DaguerreError) {
        flush()
        if let e = writeError { throw e }
        try encoder.finish()
    }
    func abort() { encoder.abort() }
}
