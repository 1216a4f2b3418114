import Daguerre
import DaguerreTestSupport
import Foundation
import Synchronization
import Testing

/// A file source's rows reach the tiles through `SourceSession`'s window, a ring of rows that
/// bands decode into (and prefetch the next band into) and that wraps around as the render goes
/// down the image. Whatever the band height, and with a blur's margin rows kept from one band
/// to the next, the render must equal the same recipe on a buffer that holds the whole image.
@Suite struct SourceSessionTests {
    @Test(
        "Band heights that wrap the source window at every offset (7, 16, 33 rows, a blur's margins, a crop) render a file exactly as a whole-image buffer does"
    )
    func ringWindowEqualsAWholeImageBuffer() throws {
        let file = try Kodak.image(3)
        let whole = try Context().createBuffer(file, format: .rgbaf, colorSpace: nil)
        let memory = Image(buffer: whole)
        func recipe(_ image: Image) throws -> Image {
            let crop = image.cropped(to: Rect(x: 40, y: 25, width: 300, height: 400))
            return try crop.applying(GaussianBlur(radius: 2.5)).applying(ExposureAdjust(ev: 0.2))
        }
        let reference = try Context().createBuffer(try recipe(memory), format: .rgba8, colorSpace: .sRGB).withUnsafeBytes { Array($0) }
        for height in [7, 16, 33] {
            let context = try Context(options: .init(tileWidth: 96, tileHeight: height))
            let banded = try context.createBuffer(try recipe(file), format: .rgba8, colorSpace: .sRGB).withUnsafeBytes { Array($0) }
            // Counted, not compared as arrays: a failing array comparison would print a diff of
            // half a million bytes.
            let off = zip(banded, reference).filter { $0 != $1 }.count
            #expect(banded.count == reference.count && off == 0, "band height \(height): \(off) bytes differ")
            // Forward only: the window never went back to the top of the file.
            #expect(context.lastRenderReport?.sourceRestarts == 0)
        }
    }

    @Test(
        "A decoder that lends its rows (as the RAW develop lends its chunks) renders as a whole-image buffer does, with chunks shorter and taller than the bands; rows are released only once no band reads them (released rows are poisoned)"
    )
    func lentRowsEqualAWholeImageBuffer() throws {
        let whole = try Context().createBuffer(try Kodak.image(3), format: .rgbaf, colorSpace: nil)
        let memory = Image(buffer: whole, colorSpace: .extendedLinearSRGB)
        func recipe(_ image: Image) throws -> Image {
            let crop = image.cropped(to: Rect(x: 40, y: 25, width: 300, height: 400))
            return try crop.applying(GaussianBlur(radius: 2.5)).applying(ExposureAdjust(ev: 0.2))
        }
        let reference = try Context().createBuffer(try recipe(memory), format: .rgba8, colorSpace: .sRGB).withUnsafeBytes { Array($0) }
        for (band, chunk) in [(7, 10), (16, 50), (33, 12)] {
            let lender = ChunkLender(whole, chunkRows: chunk)
            let source = try Image(identity: "lender \(band) \(chunk)") { lender }
            // Two workers, so a band is one row of tiles whatever the machine (the bound below).
            let context = try Context(options: .init(tileWidth: 96, tileHeight: band, maxThreads: 2))
            let banded = try context.createBuffer(try recipe(source), format: .rgba8, colorSpace: .sRGB).withUnsafeBytes { Array($0) }
            let off = zip(banded, reference).filter { $0 != $1 }.count
            #expect(banded.count == reference.count && off == 0, "band height \(band), chunks of \(chunk) rows: \(off) bytes differ")
            let (lent, released, most) = lender.counts.withLock { $0 }
            #expect(lent > 0 && released > 0, "rows were lent (\(lent)) and released (\(released))")
            // Held at once: about a band and its margins, the next band, and a chunk either side.
            #expect(most <= 2 * band + 20 + 2 * chunk, "\(most) rows held at once")
        }
    }
}

/// A lending decoder over an image in memory: rows are copied into chunks of its own when lent,
/// and a released chunk is filled with NaN (and kept until the end, never reused), so a render
/// that read a row after releasing it would show it.
private final class ChunkLender: RowSource, @unchecked Sendable {
    // Safety: the engine calls a source from one thread at a time; `counts` is locked for the test.
    let info: RowSourceInfo
    private let whole: PixelBuffer
    private let chunkRows: Int
    private var chunks: [(rows: Range<Int>, pixels: UnsafeMutablePointer<Float>)] = []
    private var retired: [UnsafeMutablePointer<Float>] = []
    /// Rows lent, rows released, and the most rows held at once.
    let counts = Mutex((0, 0, 0))

    init(_ whole: PixelBuffer, chunkRows: Int) {
        self.whole = whole
        self.chunkRows = chunkRows
        info = RowSourceInfo(
            kind: "chunk lender", width: whole.width, height: whole.height, pixelFormat: .rgbaf, alpha: .premultiplied,
            colorSpace: .extendedLinearSRGB)
    }
    deinit { for p in chunks.map(\.pixels) + retired { p.deallocate() } }

    func setColumns(_ columns: Range<Int>) throws(DaguerreError) -> Range<Int> { 0..<info.width }
    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        throw .unsupported(feature: "copied rows in this test", hint: "lend them")
    }
    var lendsRows: Bool { true }
    func lendRows(y: Int, count: Int) throws(DaguerreError) -> [LentRows] {
        let rowFloats = info.width * 4
        var spans: [LentRows] = []
        var row = y
        while row < y + count {
            let start = row / chunkRows * chunkRows
            if !chunks.contains(where: { $0.rows.lowerBound == start }) {
                let rows = start..<min(info.height, start + chunkRows)
                let pixels = UnsafeMutablePointer<Float>.allocate(capacity: rows.count * rowFloats)
                whole.withUnsafeBytes { raw in
                    for r in rows {
                        (pixels + (r - start) * rowFloats).update(
                            from: (raw.baseAddress! + r * whole.bytesPerRow).assumingMemoryBound(to: Float.self), count: rowFloats)
                    }
                }
                chunks.append((rows, pixels))
            }
            let c = chunks.first { $0.rows.lowerBound == start }!
            let n = min(y + count, c.rows.upperBound) - row
            spans.append(
                LentRows(rows: row..<row + n, base: UnsafeRawPointer(c.pixels + (row - start) * rowFloats), bytesPerRow: rowFloats * 4))
            row += n
        }
        let held = chunks.reduce(0) { $0 + $1.rows.count }
        counts.withLock {
            $0.0 += count
            $0.2 = max($0.2, held)
        }
        return spans
    }
    func releaseRows(below y: Int) {
        let rowFloats = info.width * 4
        for c in chunks where c.rows.upperBound <= y {
            c.pixels.update(repeating: .nan, count: c.rows.count * rowFloats)
            retired.append(c.pixels)
            counts.withLock { $0.1 += c.rows.count }
        }
        chunks.removeAll { $0.rows.upperBound <= y }
    }
}
