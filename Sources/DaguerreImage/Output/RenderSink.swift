import DaguerreCore
import DaguerreFormats

/// Where rendered rows go: a caller's buffer or a streaming file encoder (I7).
///
/// Workers call ``put`` concurrently for disjoint pieces of the current band; the renderer calls
/// ``endBand(_:)`` between bands on one thread, and ``finish()`` or ``abort()`` at the end.
protocol RenderSink: AnyObject, Sendable {
    func beginBand(_ band: IntRect)
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>)
    func endBand(_ band: IntRect) throws(DaguerreError)
    func finish() throws(DaguerreError)
    func abort()
}

/// Renders straight into memory the caller owns (`render(_:toBitmap:...)`), or into a
/// ``PixelBuffer``. No band buffer: tiles write their pixels in place.
final class BufferSink: RenderSink, @unchecked Sendable {
    // Safety: workers write disjoint rectangles of `base`, which the caller keeps alive for the
    // duration of the render call.
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let origin: (x: Int, y: Int)
    let converter: OutputConverter

    init(base: UnsafeMutableRawPointer, bytesPerRow: Int, origin: (x: Int, y: Int), converter: OutputConverter) {
        self.base = base; self.bytesPerRow = bytesPerRow; self.origin = origin; self.converter = converter
    }
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        let dst = base + (y - origin.y) * bytesPerRow + (x - origin.x) * converter.format.bytesPerPixel
        converter.convert(pixels, count: count, into: dst)
    }
    func beginBand(_ band: IntRect) {}
    func endBand(_ band: IntRect) throws(DaguerreError) {}
    func finish() throws(DaguerreError) {}
    func abort() {}
}

/// Streams bands of rows into a file encoder: no full-size copy of the output is ever held.
final class EncoderSink: RenderSink, @unchecked Sendable {
    // Safety: workers write disjoint parts of `band`; `endBand` runs alone between bands.
    let encoder: any ImageEncoder
    let converter: OutputConverter
    let width: Int
    let originX: Int
    private var band: UnsafeMutableRawPointer
    private var bandRows: Int
    private let rowBytes: Int
    private var bandY = 0

    init(encoder: any ImageEncoder, converter: OutputConverter, width: Int, originX: Int, maxBandRows: Int) {
        self.encoder = encoder; self.converter = converter; self.width = width; self.originX = originX
        rowBytes = width * converter.format.bytesPerPixel
        bandRows = maxBandRows
        band = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * max(1, maxBandRows), alignment: 64)
    }
    deinit { band.deallocate() }

    /// Called by the renderer before each band.
    func beginBand(_ rect: IntRect) {
        bandY = rect.y
        if rect.height > bandRows {
            band.deallocate()
            band = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * rect.height, alignment: 64)
            bandRows = rect.height
        }
    }
    func put(y: Int, x: Int, count: Int, pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        converter.convert(pixels, count: count, into: band + (y - bandY) * rowBytes + (x - originX) * converter.format.bytesPerPixel)
    }
    func endBand(_ rect: IntRect) throws(DaguerreError) {
        try encoder.writeRows(UnsafeRawPointer(band), bytesPerRow: rowBytes, count: rect.height)
    }
    func finish() throws(DaguerreError) { try encoder.finish() }
    func abort() { encoder.abort() }
}
