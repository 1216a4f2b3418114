import DaguerreTestSupport
import Testing

@testable import DaguerreRAW

/// The vectorized LMMSE-GW stripe (SPEC X2, X5) against the plain scalar reference: every
/// output sample must be bit-identical, for every Bayer order, for stripes that start on either
/// parity, and for widths that are not whole vectors or narrower than one. Bit-identity is what
/// keeps the golden checksums of pipeline versions 2 and 3 unchanged (X5).
@Suite struct LMMSEGWScheduleTests {
    /// An sRGB-encoded mosaic with texture, edges and flat areas, mirrored at its borders.
    struct Mosaic {
        let width: Int, height: Int, values: [Float]
        init(width: Int, height: Int, seed: UInt64) {
            self.width = width
            self.height = height
            var state = seed
            values = (0..<(width * height)).map { i in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Float(state >> 40) / Float(1 << 24)
                let x = i % width
                let y = i / width
                let edge: Float = x * 3 + y > width ? 0.8 : 0.15
                return min(1.2, edge * (0.7 + 0.3 * noise) + (x % 5 == 0 ? 0.2 : 0))
            }
        }
        func fill(_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) {
            func mirrored(_ v: Int, _ size: Int) -> Int {
                var m = v < 0 ? -v : v
                if m >= size { m = 2 * (size - 1) - m }
                return min(max(m, 0), size - 1)
            }
            let row = mirrored(y, height) * width
            for i in 0..<count { into[i] = values[row + mirrored(x0 + i, width)] }
        }
    }

    typealias Write = (_ y: Int, _ x0: Int, _ n: Int, _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>) ->
        Void

    /// R, G and B of `rows` × `columns`, interleaved, from the stripes `body` runs with the
    /// writer it is given.
    static func collect(rows: Range<Int>, columns: Range<Int>, _ body: (Write) -> Void) -> [Float] {
        var out = [Float](repeating: .nan, count: rows.count * columns.count * 3)
        body { y, x0, n, r, g, b in
            for i in 0..<n {
                let o = ((y - rows.lowerBound) * columns.count + x0 - columns.lowerBound + i) * 3
                out[o] = r[i]
                out[o + 1] = g[i]
                out[o + 2] = b[i]
            }
        }
        return out
    }

    /// R, G and B of a stripe, interleaved, from either implementation.
    static func render(_ mosaic: Mosaic, rows: Range<Int>, columns: Range<Int>, pattern: [UInt8], reference: Bool) -> [Float] {
        guard reference else {
            return renderChunks(
                mosaic, rows: rows, columns: columns, chunks: [(rows, columns)], pattern: pattern,
                workspace: LMMSEGWDemosaic.Workspace(columns: columns.count))
        }
        return collect(rows: rows, columns: columns) { write in
            LMMSEGWScalarReference.stripe(
                rows: rows, columns: columns, pattern: BayerPatternColors(pattern), fill: mosaic.fill, write: write)
        }
    }

    /// R, G and B of `rows` × `columns`, made by the vectorized stripe as `chunks` (each a range
    /// of rows and of columns) through one workspace.
    static func renderChunks(
        _ mosaic: Mosaic, rows: Range<Int>, columns: Range<Int>, chunks: [(Range<Int>, Range<Int>)],
        pattern: [UInt8], workspace: LMMSEGWDemosaic.Workspace
    ) -> [Float] {
        collect(rows: rows, columns: columns) { write in
            for (chunkRows, chunkColumns) in chunks {
                LMMSEGWDemosaic.stripe(
                    rows: chunkRows, columns: chunkColumns, pattern: BayerPatternColors(pattern), workspace: workspace,
                    fill: mosaic.fill, write: write)
            }
        }
    }

    @Test(
        "Chunks that go on from the workspace's last stripe resume its roll: the pixels equal the reference over all of them, bit for bit; a jump back, other columns or another Bayer order start afresh",
        arguments: [[0, 1, 1, 2], [1, 2, 0, 1]] as [[UInt8]])
    func rollingChunksMatchOneStripe(pattern: [UInt8]) {
        let mosaic = Mosaic(width: 75, height: 153, seed: 11)
        let rows = 3..<153
        let columns = 5..<74
        let reference = Self.render(mosaic, rows: rows, columns: columns, pattern: pattern, reference: true)
        let workspace = LMMSEGWDemosaic.Workspace(columns: columns.count)
        // Rolled chunks, one of a single row; the last reaches the image's bottom edge.
        let rolled = Self.renderChunks(
            mosaic, rows: rows, columns: columns,
            chunks: [(3..<40, columns), (40..<41, columns), (41..<100, columns), (100..<153, columns)],
            pattern: pattern, workspace: workspace)
        #expect(zip(rolled, reference).filter { $0.bitPattern != $1.bitPattern }.isEmpty)
        #expect(workspace.rolled?.origin == rows.lowerBound - LMMSEGWDemosaic.halo && workspace.rolled?.end == 153)
        // The same workspace, then: rows again from the top (a jump back), a narrower column
        // range at the rows that would go on, and the other Bayer order's reading of the mosaic.
        let again = Self.renderChunks(
            mosaic, rows: rows, columns: columns, chunks: [(3..<90, columns), (90..<153, columns)],
            pattern: pattern, workspace: workspace)
        #expect(zip(again, reference).filter { $0.bitPattern != $1.bitPattern }.isEmpty)
        let narrow = 9..<60
        _ = Self.renderChunks(mosaic, rows: 3..<90, columns: columns, chunks: [(3..<90, columns)], pattern: pattern, workspace: workspace)
        let fresh = Self.renderChunks(
            mosaic, rows: 90..<153, columns: narrow, chunks: [(90..<153, narrow)], pattern: pattern, workspace: workspace)
        let freshReference = Self.render(mosaic, rows: 90..<153, columns: narrow, pattern: pattern, reference: true)
        #expect(zip(fresh, freshReference).filter { $0.bitPattern != $1.bitPattern }.isEmpty)
        let other: [UInt8] = pattern == [0, 1, 1, 2] ? [1, 2, 0, 1] : [0, 1, 1, 2]
        _ = Self.renderChunks(mosaic, rows: 3..<90, columns: columns, chunks: [(3..<90, columns)], pattern: pattern, workspace: workspace)
        let switched = Self.renderChunks(
            mosaic, rows: 90..<153, columns: columns, chunks: [(90..<153, columns)], pattern: other, workspace: workspace)
        let switchedReference = Self.render(mosaic, rows: 90..<153, columns: columns, pattern: other, reference: true)
        #expect(zip(switched, switchedReference).filter { $0.bitPattern != $1.bitPattern }.isEmpty)
    }

    @Test(arguments: [[0, 1, 1, 2], [2, 1, 1, 0], [1, 0, 2, 1], [1, 2, 0, 1]] as [[UInt8]])
    func vectorizedStripeMatchesScalarReferenceBitForBit(pattern: [UInt8]) {
        let mosaic = Mosaic(width: 75, height: 153, seed: 7)
        // Whole image, odd offsets and sizes, a part-vector width and sub-vector widths, and tall
        // stripes.
        let stripes: [(Range<Int>, Range<Int>)] = [
            (0..<153, 0..<75), (3..<40, 5..<74), (10..<11, 1..<20), (0..<53, 30..<33),
            (17..<29, 0..<8), (2..<9, 61..<62), (5..<150, 9..<70),
        ]
        for (rows, columns) in stripes {
            let fast = Self.render(mosaic, rows: rows, columns: columns, pattern: pattern, reference: false)
            let slow = Self.render(mosaic, rows: rows, columns: columns, pattern: pattern, reference: true)
            let differing = zip(fast, slow).filter { $0.bitPattern != $1.bitPattern }.count
            #expect(differing == 0, "pattern \(pattern) rows \(rows) columns \(columns): \(differing) of \(fast.count) samples differ")
            #expect(fast.allSatisfy { $0.isFinite })
        }
    }

    /// `ninth` is the division by 9, bit for bit, in the build the tests run (with
    /// scripts/swift-flags that is the FMA form; scripts/check-ninth.c checks that form over all
    /// 2³² floats in C, this checks the Swift code itself): every exponent, the special values,
    /// and a million random bit patterns.
    @Test("LMMSE-GW's x / 9 equals the division bit for bit: specials, every exponent, a million random floats")
    func ninthIsTheDivision() {
        var values: [Float] = [
            0, -0.0, 1, -1, 9, -9, 1.0 / 9, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        ]
        for e in 0..<256 {
            for m: UInt32 in [0, 1, 0x2A_AAAA, 0x55_5555, 0x7F_FFFF] { values.append(Float(bitPattern: UInt32(e) << 23 | m)) }
        }
        var rng = SeededRandom(seed: 9)
        for _ in 0..<(1 << 20) { values.append(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next() >> 32))) }
        let lanes = LMMSEGWDemosaic.lanes
        while values.count % lanes != 0 { values.append(2) }
        var mismatches = 0
        var first: Float?
        for g in stride(from: 0, to: values.count, by: lanes) {
            let x = LMMSEGWDemosaic.V(values[g..<(g + lanes)])
            let got = LMMSEGWDemosaic.ninth(x)
            let want = x / LMMSEGWDemosaic.V(repeating: 9)
            for lane in 0..<lanes where got[lane].bitPattern != want[lane].bitPattern && !(got[lane].isNaN && want[lane].isNaN) {
                mismatches += 1
                first = first ?? x[lane]
            }
        }
        #expect(mismatches == 0, "\(mismatches) differ, first at \(String(describing: first))")
    }
}
