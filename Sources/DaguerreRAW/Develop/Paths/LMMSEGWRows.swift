// The two ends of the LMMSE-GW stripe (SPEC X2, X5), row segment by row segment: what goes in
// (the mosaic linearized, white balanced and encoded in the version's domain, mirrored at the
// mosaic's edges) and what comes out (decoded to linear light, through the highlight stage and
// the matrix). Each keeps the order of operations its pipeline versions pinned. Our own code.
import DaguerreCore

/// Where a stripe's encoded mosaic rows come from.
///
/// ```swift
/// let input = DemosaicInput.codes(rows, tables: encodeTables)
/// try input.withReady { ready in ready.fill(y: 10, x0: -3, count: 64, into: row, mosaicWidth: w, mosaicHeight: h) }
/// ```
enum DemosaicInput {
    /// A window of linearized (shaded, denoised) photosites, row stride `width`.
    struct Window: @unchecked Sendable {
        // Safety: read-only here; the denoised window outlives the develop call.
        let samples: UnsafePointer<Float>
        let x: Int, y: Int, width: Int, height: Int
    }

    /// Raw codes through per-position tables (code → encoded, white-balanced value).
    case codes(MosaicRows, tables: [Float])
    /// The denoised window, each photosite times its colour's white-balance gain, then encoded.
    case window(Window, gains: SIMD4<Float>, domain: DemosaicDomain)

    /// Per CFA position, the white-balance gain of its colour (1 / the normalized neutral).
    static func gains(balance n: SIMD3<Double>, pattern: BayerPattern) -> SIMD4<Float> {
        let g = (0..<4).map { Float(1 / max(n[Int(pattern.cfaPattern[$0])], 1e-6)) }
        return SIMD4(g[0], g[1], g[2], g[3])
    }

    /// Runs `body` with the input's tables pinned in memory.
    func withReady<R>(_ body: (Ready) throws(DaguerreError) -> R) throws(DaguerreError) -> R {
        switch self {
        case .codes(let rows, let tables):
            return try tables.withUnsafeBufferPointer { (t) throws(DaguerreError) in
                try body(Ready(source: .codes(rows, table: t.baseAddress!)))
            }
        case .window(let window, let gains, let domain):
            guard domain == .sRGB else { return try body(Ready(source: .window(window, gains: gains, curve: nil))) }
            // The sRGB curve's table is built only for the versions that use it (2 and 3).
            return try SRGBCurve.encodeTable.withUnsafeBufferPointer { (t) throws(DaguerreError) in
                try body(Ready(source: .window(window, gains: gains, curve: t.baseAddress!)))
            }
        }
    }

    /// The input with its tables' addresses, shared by the stripes' workers.
    struct Ready: @unchecked Sendable {
        // Safety: only read; the tables, rows and window outlive ``DemosaicInput/withReady(_:)``.
        enum Source {
            case codes(MosaicRows, table: UnsafePointer<Float>)
            /// `curve`: the sRGB encode table, or nil for the power-2.5 domain.
            case window(Window, gains: SIMD4<Float>, curve: UnsafePointer<Float>?)
        }
        let source: Source

        /// Writes encoded row `y`, columns `x0 ..< x0 + count` (any integers: mirrored) into `dst`.
        @inline(__always) func fill(
            y: Int, x0: Int, count: Int, into dst: UnsafeMutablePointer<Float>, mosaicWidth w: Int, mosaicHeight h: Int
        ) {
            let my = WholeSampleMirror.index(y, h)
            let end = x0 + count
            switch source {
            case .codes(let src, let table):
                let line = src.row(my)
                let py = (my & 1) << 1
                // Mirrored columns only at the mosaic's edges.
                let lo = min(max(x0, 0), end)
                let hi = max(min(end, w), lo)
                @inline(__always) func put(_ x: Int, from mx: Int) { dst[x - x0] = table[(py | (mx & 1)) << 16 | Int(line[mx])] }
                for x in x0..<lo { put(x, from: WholeSampleMirror.index(x, w)) }
                for x in lo..<hi { put(x, from: x) }
                for x in hi..<end { put(x, from: WholeSampleMirror.index(x, w)) }
            case .window(let window, let gains, let curve):
                let line = window.samples + min(max(my - window.y, 0), window.height - 1) * window.width
                let gy = (my & 1) << 1
                @inline(__always) func encode(_ v: Float) -> Float {
                    guard let curve else { return PowerDomain.encode(v) }
                    return SRGBCurve.encodeFast(v, curve)
                }
                // Columns inside the mosaic and the window need no mirroring and their gains
                // alternate: they go through the row loops. The few mirrored ones of the edge
                // blocks go one by one (the same arithmetic).
                let lo = min(max(x0, max(0, window.x)), end)
                let hi = max(min(end, min(w, window.x + window.width)), lo)
                func edge(_ x: Int) {
                    let mx = WholeSampleMirror.index(x, w)
                    let wx = min(max(mx - window.x, 0), window.width - 1)
                    dst[x - x0] = encode(line[wx] * gains[gy | (mx & 1)])
                }
                for x in x0..<lo { edge(x) }
                for x in hi..<end { edge(x) }
                guard hi > lo else { return }
                let row = line + (lo - window.x)
                let out = dst + (lo - x0)
                let n = hi - lo
                let first = gains[gy | (lo & 1)]
                let second = gains[gy | ((lo + 1) & 1)]
                guard let curve else {
                    PowerDomain.encodeRow(row, count: n, first: first, second: second, into: out)
                    return
                }
                var i = 0
                while i + 1 < n {
                    out[i] = SRGBCurve.encodeFast(row[i] * first, curve)
                    out[i + 1] = SRGBCurve.encodeFast(row[i + 1] * second, curve)
                    i += 2
                }
                if i < n { out[i] = SRGBCurve.encodeFast(row[i] * first, curve) }
            }
        }
    }
}

/// Where a stripe's developed row segments go: decoded from the domain, through the highlight
/// stage and the matrix, into interleaved RGB floats.
///
/// ```swift
/// let output = DemosaicOutput(destination: chunk, bytesPerRow: w * 12, origin: (x: 8, y: 256), pixel: px, mosaic: rows, domain: .power25)
/// try output.withReady { writer in writer.write(y: 300, x0: 8, count: 64, r, g, b) }
/// ```
struct DemosaicOutput {
    let destination: UnsafeMutableRawPointer
    let bytesPerRow: Int
    /// The sensor photosite that lands at the destination's first pixel.
    let origin: (x: Int, y: Int)
    let pixel: PixelDevelop
    /// The mosaic rows the highlight stage consults.
    let mosaic: MosaicRows
    let domain: DemosaicDomain

    /// Runs `body` with the decode table pinned in memory (the sRGB domain only).
    func withReady<R>(_ body: (Writer) throws(DaguerreError) -> R) throws(DaguerreError) -> R {
        let knee = pixel.highlight.map { $0.saturation * HighlightRecovery.knee } ?? SIMD3(repeating: .infinity)
        guard domain == .sRGB else {
            return try body(
                Writer(
                    destination: destination, bytesPerRow: bytesPerRow, origin: origin, pixel: pixel, mosaic: mosaic, knee: knee, curve: nil
                ))
        }
        return try SRGBCurve.decodeTable.withUnsafeBufferPointer { (t) throws(DaguerreError) in
            try body(
                Writer(
                    destination: destination, bytesPerRow: bytesPerRow, origin: origin, pixel: pixel, mosaic: mosaic, knee: knee,
                    curve: t.baseAddress!))
        }
    }

    /// The output with its table's address, shared by the stripes' workers.
    struct Writer: @unchecked Sendable {
        // Safety: each worker writes only its own column block's pixels of `destination`; the
        // table and the mosaic rows are read-only and outlive ``DemosaicOutput/withReady(_:)``.
        let destination: UnsafeMutableRawPointer
        let bytesPerRow: Int
        let origin: (x: Int, y: Int)
        let pixel: PixelDevelop
        let mosaic: MosaicRows
        /// Above this level (linear, white balanced) a channel may be clipped.
        let knee: SIMD3<Float>
        /// The sRGB decode table, or nil for the power-2.5 domain.
        let curve: UnsafePointer<Float>?

        /// Row `y`, columns `x0 ..< x0 + count` (sensor coordinates) from planes in the domain.
        @inline(__always) func write(
            y: Int, x0: Int, count: Int, _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>
        ) {
            let o = (destination + (y - origin.y) * bytesPerRow).assumingMemoryBound(to: Float.self) + 3 * (x0 - origin.x)
            let px = pixel
            let rows = mosaic
            guard let curve else {
                // The power domain: a vectorized row, then the scalar pixel path (the same
                // arithmetic) over the pixels it marked near clipping alone, and only where a
                // photosite within reach of the segment is at white (elsewhere that path would
                // write what the row did).
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { flags in
                    let marks = flags.baseAddress!
                    guard PowerDomain.developRow(r, g, b, count: count, matrix: px.balancedMatrix, knee: knee, into: o, flags: marks),
                        px.mayReachWhite(y: y, x0: x0, count: count, rows: rows)
                    else { return }
                    PowerDomain.forEachFlagged(marks, count: count) { i in
                        px.writeBalanced(
                            PowerDomain.decode(r[i]), PowerDomain.decode(g[i]), PowerDomain.decode(b[i]), x: x0 + i, y: y, rows: rows,
                            to: o + 3 * i)
                    }
                }
                return
            }
            // Away from white the highlight stage would leave every pixel as it is: the matrix alone.
            let nearWhite = px.mayReachWhite(y: y, x0: x0, count: count, rows: rows)
            for i in 0..<count {
                let (lr, lg, lb) = (SRGBCurve.decodeFast(r[i], curve), SRGBCurve.decodeFast(g[i], curve), SRGBCurve.decodeFast(b[i], curve))
                if nearWhite {
                    px.writeBalanced(lr, lg, lb, x: x0 + i, y: y, rows: rows, to: o + 3 * i)
                } else {
                    px.balancedMatrix.write(lr, lg, lb, to: o + 3 * i)
                }
            }
        }
    }
}
