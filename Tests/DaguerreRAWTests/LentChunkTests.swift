import DaguerreCore
import DaguerreImage
import Testing

@testable import DaguerreFormats
@testable import DaguerreRAW

/// The full develop lends its chunks to the engine instead of copying every developed row into
/// the engine's window (`RowSource.lendRows`, SPEC X7). Lent rows are the develop's rows, bit
/// for bit, and a chunk's buffer is reused only once the engine has released every row of it:
/// while rows are held, the develop working ahead waits for a released buffer rather than
/// writing over them.
@Suite struct LentChunkTests {
    /// StreamedMosaicTests' 690 × 1088 develop (chunks of 256 rows, the last one 64), streamed
    /// from its DNG, and the same develop of the decoded mosaic read by copy.
    static func develops(noiseReduction: Bool) throws -> (expected: [Float], lender: RAWDevelopDecoder) {
        let bytes = try StreamedMosaicTests.dngBytes()
        let stored = try StreamedMosaicTests.stored(bytes)
        let whole = try #require(try DNGReader.read(bytes: bytes).mosaic)
        let settings = StreamedMosaicTests.settings(noiseReduction: noiseReduction)
        let (w, h) = (690, 1088)
        var expected = [Float](repeating: .nan, count: w * h * 3)
        try expected.withUnsafeMutableBytes {
            try RAWDevelopDecoder(mosaic: whole, settings: settings).readRows(y: 0, count: h, into: $0.baseAddress!, bytesPerRow: w * 12)
        }
        let lender = try RAWDevelopDecoder(stored: stored, settings: settings)
        lender.willRead(rows: 0..<h)
        #expect(lender.lendsRows)
        return (expected, lender)
    }

    /// Samples of lent rows `rows` that differ from `expected`'s, bit for bit.
    static func differing(_ spans: [LentRows], rows: Range<Int>, expected: [Float], width: Int) -> Int {
        var off = 0
        for y in rows {
            guard let span = spans.last(where: { $0.rows.contains(y) }) else { return Int.max }
            let lent = span.row(y).assumingMemoryBound(to: Float.self)
            for i in 0..<(width * 3) where lent[i].bitPattern != expected[y * width * 3 + i].bitPattern { off += 1 }
        }
        return off
    }

    /// The start of the chunk buffer holding lent row `y` (chunks start every 256 rows here).
    static func buffer(_ spans: [LentRows], row y: Int, width: Int) -> UnsafeRawPointer? {
        spans.last { $0.rows.contains(y) }.map { $0.row(y) - (y % DevelopChunks.chunkRows) * width * 12 }
    }

    @Test(
        "Rows lent and never released keep their chunks: every lent row equals the develop's at the end, and no chunk buffer was reused",
        arguments: [true, false])
    func heldRowsAreNeverOverwritten(noiseReduction: Bool) throws {
        let (expected, lender) = try Self.develops(noiseReduction: noiseReduction)
        let (w, h) = (690, 1088)
        var spans: [LentRows] = []
        for y in stride(from: 0, to: h, by: 64) { spans += try lender.lendRows(y: y, count: min(64, h - y)) }
        #expect(spans.map(\.rows.count).reduce(0, +) == h)
        let off = Self.differing(spans, rows: 0..<h, expected: expected, width: w)
        #expect(off == 0, "\(off) lent samples differ from the develop's")
        let buffers = Set(stride(from: 0, to: h, by: DevelopChunks.chunkRows).compactMap { Self.buffer(spans, row: $0, width: w) })
        #expect(buffers.count == 5, "\(buffers.count) buffers for 5 chunks held at once")
    }

    @Test(
        "Lent and released as the engine does (a band held, the next lent ahead, rows above the band released): held rows equal the develop's, and two chunk buffers serve the whole image"
    )
    func releasedChunksAreReused() throws {
        let (expected, lender) = try Self.develops(noiseReduction: true)
        let (w, h) = (690, 1088)
        var held = try lender.lendRows(y: 0, count: 64)
        var buffers = Set<UnsafeRawPointer>()
        for y in stride(from: 0, to: h, by: 64) {
            lender.releaseRows(below: y)
            // A chunk's last band released: the develop of the chunk after next starts now, in
            // the buffer just released (the last chunk, from row 1024, has none after it).
            if y % DevelopChunks.chunkRows == 0, y > 0, y + DevelopChunks.chunkRows < 1024 {
                #expect(lender.isDevelopingAhead, "row \(y): the develop ahead did not start")
            }
            held.removeAll { $0.rows.upperBound <= y }
            if y + 64 < h { held += try lender.lendRows(y: y + 64, count: min(64, h - y - 64)) }
            let band = y..<min(y + 64, h)
            let off = Self.differing(held, rows: band, expected: expected, width: w)
            #expect(off == 0, "rows \(band): \(off) samples differ while held")
            if let b = Self.buffer(held, row: y, width: w) { buffers.insert(b) }
        }
        #expect(buffers.count == 2, "\(buffers.count) chunk buffers")
    }

    @Test("A develop that does not lend (the draft paths) says so, and lending from it is a typed error")
    func draftDevelopsDoNotLend() throws {
        let bytes = try StreamedMosaicTests.dngBytes()
        let whole = try #require(try DNGReader.read(bytes: bytes).mosaic)
        var settings = StreamedMosaicTests.settings(noiseReduction: false)
        settings.demosaic = .bilinear
        let draft = try RAWDevelopDecoder(mosaic: whole, settings: settings)
        #expect(!draft.lendsRows)
        #expect(throws: DaguerreError.self) { try draft.lendRows(y: 0, count: 8) }
    }
}
