// The high-quality demosaic (SPEC X2): LMMSE-GW, our own combination of published
// parts, found and measured by the project's demosaic research (Kodak24, L protocol: 40.34 dB
// mean CPSNR; LibRaw AHD 33.5, RawTherapee LMMSE 38.8):
// - Hamilton–Adams directional colour differences;
// - Zhang & Wu (2005) 1-D LMMSE denoising of each difference along its direction;
// - Pekkucuksen & Gunturk (2010, GBTF) four-direction gradient weights and 7×7 red/blue kernel;
// all on the sRGB-encoded, white-balanced mosaic (worth about 6 dB over linear light), with
// linear input and output. Our own code: no library implements it.
import DaguerreCore
import Foundation

/// Demosaics stripes of a white-balanced Bayer mosaic whose samples are already encoded with
/// the sRGB curve (`fill(y, x0, count, into)` writes a row segment of them, in image
/// coordinates, any integers: the caller mirrors).
///
/// Every stage works on a padded stripe with a 20-sample halo (the receptive field is 17), so
/// stripes are independent: a streaming source develops band by band, workers block by block.
///
/// ```swift
/// let workspace = LMMSEGWDemosaic.Workspace(columns: 6000)
/// LMMSEGWDemosaic.stripe(rows: 0..<64, columns: 0..<6000, pattern: colors, workspace: workspace,
///                        fill: { y, x0, n, row in for i in 0..<n { row[i] = lut[Int(mosaic[y * w + x0 + i])] } },
///                        write: { y, x0, n, r, g, b in for i in 0..<n { out[...] = (r[i], g[i], b[i]) } })
/// ```
enum LMMSEGWDemosaic {
    static let halo = 20
    /// Fusion weights along a direction (GBTF), nearest first.
    static let f: (Float, Float, Float, Float) = (0.56, 0.35, 0.08, 0.01)
    /// A Gaussian of σ = 2 over 9 taps, centre first.
    static let gauss: [Float] = {
        let k = (0...4).map { Float(exp(-Double($0 * $0) / 8)) }
        let sum = k[0] + 2 * (k[1] + k[2] + k[3] + k[4])
        return k.map { $0 / sum }
    }()
    static let epsilon: Float = 1e-10

    /// The rows a stripe's stages keep alive, whatever the stripe's height: each plane is a ring
    /// of rows just deep enough for the rows its readers still need (about 220 rows in all:
    /// under 1 MB at 1024 columns, so the stages run out of the core's L2 cache).
    final class Workspace {
        let columns: Int, stride: Int
        private let memory: ZeroedBuffer
        // Ring depths: from the row a plane is written at to the oldest row a reader still
        // reads, rounded up to a power of two (see the lags in `stripe`).
        let y, dh, dv, t1v, t2v, ev, a, b, bh, bv, inverseH, inverseV, green, cr, cb: Ring
        /// Single rows: the horizontal LMMSE's statistics and result, and the output planes.
        let t1h, t2h, eh, outR, outG, outB: UnsafeMutablePointer<Float>
        /// Where the rings' rows stand after the last stripe: the image row of padded row 0, the
        /// next lead, the columns and the rows it made. A stripe that goes on from them (the next
        /// rows, the same columns) resumes the roll instead of filling a fresh 20-row halo.
        var rolled: (origin: Int, nextLead: Int, columns: Range<Int>, end: Int, pattern: BayerPatternColors)?

        /// At least `lanes` columns, so that every row sweep holds one whole vector.
        init(columns: Int) {
            self.columns = max(columns, LMMSEGWDemosaic.lanes)
            stride = (self.columns + 2 * LMMSEGWDemosaic.halo + 15) & ~15
            let depths = [32, 16, 16, 16, 16, 8, 4, 8, 4, 8, 16, 16, 8, 8, 8]
            let count = (depths.reduce(0, +) + 6) * stride
            memory = ZeroedBuffer(byteCount: count * MemoryLayout<Float>.stride)
            var next = memory.pointer.bindMemory(to: Float.self, capacity: count)
            var rings: [Ring] = []
            for depth in depths {
                rings.append(Ring(base: next, mask: depth - 1, stride: stride))
                next += depth * stride
            }
            (y, dh, dv, t1v, t2v, ev) = (rings[0], rings[1], rings[2], rings[3], rings[4], rings[5])
            (a, b, bh, bv) = (rings[6], rings[7], rings[8], rings[9])
            (inverseH, inverseV) = (rings[10], rings[11])
            (green, cr, cb) = (rings[12], rings[13], rings[14])
            let s = stride
            (t1h, t2h, eh, outR, outG, outB) = (next, next + s, next + 2 * s, next + 3 * s, next + 4 * s, next + 5 * s)
        }
    }

    /// A plane kept as a ring of rows: row `r` of the padded stripe lives in slot `r mod depth`.
    struct Ring {
        let base: UnsafeMutablePointer<Float>, mask: Int, stride: Int
        @inline(__always) subscript(_ r: Int) -> UnsafeMutablePointer<Float> { base + (r & mask) &* stride }
    }

    // The schedule (Halide's sense: the arithmetic is fixed by the algorithm above and by the
    // scalar reference in the tests, which this matches bit for bit).
    // - Rows roll: each step fills one mosaic row, and every stage computes the one row whose
    //   inputs have just become complete (its lag behind the filled row is the sum of the
    //   vertical reaches before it). So a row's intermediates are read while they are still in
    //   cache, and the workspace does not grow with the stripe's height.
    // - Each stage sweeps its row sixteen columns at a time as `SIMD16<Float>`, in the
    //   reference's order of operations, with a last group that overlaps the one before instead
    //   of a scalar tail (no stage reads what it writes in the same row, except stage 5b, whose
    //   kernel reads only sites it does not write). Colour decisions become lane masks. Every
    //   lane is computed alone, so the width does not change a bit: 16 lanes fill AVX-512's
    //   registers (this demosaic's CPU −20 % against 8 lanes on Zen 5), and CPUs with narrower
    //   vectors split them.
    typealias V = SIMD16<Float>
    typealias P = UnsafeMutablePointer<Float>
    static let lanes = 16

    @inline(__always) static func load(_ p: P, _ c: Int) -> V { UnsafeRawPointer(p + c).loadUnaligned(as: V.self) }
    @inline(__always) static func store(_ v: V, _ p: P, _ c: Int) { UnsafeMutableRawPointer(p + c).storeBytes(of: v, as: V.self) }

    /// The nine taps of a 1-D window along a row (`centre − 4 … centre + 4` columns) or down a
    /// column (nine ring rows), so one LMMSE serves both directions.
    struct Taps {
        let m4, m3, m2, m1, z, p1, p2, p3, p4: P
        init(row p: P) { (m4, m3, m2, m1, z, p1, p2, p3, p4) = (p - 4, p - 3, p - 2, p - 1, p, p + 1, p + 2, p + 3, p + 4) }
        init(_ ring: Ring, _ r: Int) {
            (m4, m3, m2, m1, z) = (ring[r &- 4], ring[r &- 3], ring[r &- 2], ring[r &- 1], ring[r])
            (p1, p2, p3, p4) = (ring[r &+ 1], ring[r &+ 2], ring[r &+ 3], ring[r &+ 4])
        }
    }

    /// Demosaics output `rows` × `columns` (image coordinates); `write(y, x0, count, r, g, b)`
    /// receives a row segment of sRGB-encoded R, G and B planes (sampled values kept exactly).
    /// Rows go in and out whole, so the caller's per-sample work runs in tight loops.
    ///
    /// When `rows` start where the workspace's last stripe ended, over the same columns (a
    /// streaming develop's next chunk), the roll goes on from where it stopped: every stage row
    /// is computed once, as in one stripe over both, instead of again for a fresh 20-row halo
    /// (about 15 % of a 256-row chunk's stages). `fill` must then give the rows it gave before,
    /// which a develop's fixed mosaic does; the pixels are those of one stripe over both.
    static func stripe(
        rows: Range<Int>, columns: Range<Int>, pattern: BayerPatternColors, workspace ws: Workspace,
        fill: (_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) -> Void,
        write: (_ y: Int, _ x0: Int, _ count: Int, _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> Void
    ) {
        let h = halo
        // Narrow stripes are widened to one vector (fill mirrors any coordinate); only the
        // requested columns are written.
        let width = max(columns.count, lanes)
        precondition(width <= ws.columns, "workspace too small")
        // Padded row 0 is image row `row0`; `nr` padded rows end `h` below the last output row.
        var row0 = rows.lowerBound - h
        var firstLead = 0
        if let rolled = ws.rolled, rolled.end == rows.lowerBound, rolled.columns == columns, rolled.pattern == pattern, !rows.isEmpty {
            (row0, firstLead) = (rolled.origin, rolled.nextLead)
        }
        let nr = rows.upperBound + h - row0
        let nc = width + 2 * h
        let col0 = columns.lowerBound - h
        let lastLead = nr - h + 16
        ws.rolled = rows.isEmpty ? nil : (row0, lastLead + 1, columns, rows.upperBound, pattern)
        // A row's lane masks depend only on its parity: built twice per stripe, not per stage row.
        let parityMasks = (0..<2).map { r in
            RowMasks(first: pattern.color(x: col0, y: row0 + r), second: pattern.color(x: col0 + 1, y: row0 + r))
        }
        @inline(__always) func masks(_ r: Int) -> RowMasks { parityMasks[r & 1] }
        // Each stage's rows (as in the reference) and its lag behind the filled row: 1 reads
        // y ±2; 3a dh ±2; 2a dv ±4 and 3b b ±2; 2b t ±4; 4 ev ±3 and 3c's rows ±2; 5b cr/cb ±3;
        // 6 ±1 (and 3c's ±2).
        for lead in stride(from: firstLead, through: lastLead, by: 1) {
            if lead < nr { fill(row0 + lead, col0, nc, ws.y[lead]) }
            var r = lead - 2
            if r >= 2, r < nr - 2 { hamiltonAdams(r, nc, ws, masks(r)) }
            r = lead - 4
            if r >= 5, r < nr - 5 { gradients(r, nc, ws) }
            r = lead - 6
            if r >= 6, r < nr - 6 { statistics(Taps(ws.dv, r), nc, t1: ws.t1v[r], t2: ws.t2v[r]) }
            if r >= 7, r < nr - 7 {
                gradientSums(r, nc, ws)
                weights(r, nc, ws)
            }
            r = lead - 10
            if r >= 10, r < nr - 10 { estimate(Taps(ws.t1v, r), Taps(ws.t2v, r), ws.dv[r], nc, into: ws.ev[r]) }
            r = lead - 13
            if r >= 13, r < nr - 13 {
                // The horizontal LMMSE needs only this row of dh, so it runs here, into one row.
                let d = ws.dh[r]
                statistics(Taps(row: d), nc, t1: ws.t1h, t2: ws.t2h)
                estimate(Taps(row: ws.t1h), Taps(row: ws.t2h), d, nc, into: ws.eh)
                fuse(r, nc, ws, masks(r))
            }
            r = lead - 16
            if r >= 16, r < nr - 16 {
                let a = pattern.color(x: col0, y: row0 + r)
                let b = pattern.color(x: col0 + 1, y: row0 + r)
                if a == 2 || b == 2 { opposite(ws.cr, r, nc, masks(r), red: false) }
                if a == 0 || b == 0 { opposite(ws.cb, r, nc, masks(r), red: true) }
            }
            r = lead - 17
            if r >= h, r < nr - h {
                output(r, nc, ws, masks(r))
                write(row0 + r, col0 + h, columns.count, ws.outR, ws.outG, ws.outB)
            }
        }
    }

    /// Calls `body(c)` for groups of `lanes` columns covering lo..<hi (hi − lo ≥ lanes), the last one
    /// ending at hi.
    @inline(__always) static func sweep(_ lo: Int, _ hi: Int, _ body: (Int) -> Void) {
        var c = lo
        let last = hi &- lanes
        while c < hi {
            body(min(c, last))
            c &+= lanes
        }
    }

    // 1. Hamilton–Adams: d estimates G − X along each direction.
    @inline(__always) static func hamiltonAdams(_ r: Int, _ nc: Int, _ ws: Workspace, _ masks: RowMasks) {
        let half = V(repeating: 0.5)
        let quarter = V(repeating: 0.25)
        let ym2 = ws.y[r &- 2]
        let ym1 = ws.y[r &- 1]
        let y0 = ws.y[r]
        let yp1 = ws.y[r &+ 1]
        let yp2 = ws.y[r &+ 2]
        let dh = ws.dh[r]
        let dv = ws.dv[r]
        sweep(2, nc &- 2) { c in
            let v = load(y0, c)
            let fh = half * (load(y0, c &- 1) + load(y0, c &+ 1) + v) - quarter * (load(y0, c &- 2) + load(y0, c &+ 2))
            let fv = half * (load(ym1, c) + load(yp1, c) + v) - quarter * (load(ym2, c) + load(yp2, c))
            let isGreen = masks.green(c)
            store((fh - v).replacing(with: v - fh, where: isGreen), dh, c)
            store((fv - v).replacing(with: v - fv, where: isGreen), dv, c)
        }
    }

    // 2a. The Gaussian mean of a difference along its direction, and the squared residual.
    @inline(__always) static func statistics(_ d: Taps, _ nc: Int, t1: P, t2: P) {
        let g0 = V(repeating: gauss[0])
        let g1 = V(repeating: gauss[1])
        let g2 = V(repeating: gauss[2])
        let g3 = V(repeating: gauss[3])
        let g4 = V(repeating: gauss[4])
        sweep(6, nc &- 6) { c in
            let di = load(d.z, c)
            var s = g0 * di
            s += g1 * (load(d.m1, c) + load(d.p1, c)) + g2 * (load(d.m2, c) + load(d.p2, c))
            s += g3 * (load(d.m3, c) + load(d.p3, c)) + g4 * (load(d.m4, c) + load(d.p4, c))
            store(s, t1, c)
            let q = di - s
            store(q * q, t2, c)
        }
    }

    /// x / 9, to the bit. With FMA (`DAGUERRE_FMA`, set by scripts/swift-flags when the CPU has
    /// it) as q = x·(1/9) corrected by one Newton step on the exact residual r = x − 9q, which
    /// frees the divider, the bottleneck of `estimate` (its other division is not a constant's).
    /// Checked against the division for all 2³² floats (scripts/check-ninth.c): they differ
    /// only where r is 0 (x = −0) or NaN (x = ±∞), and there q itself is x / 9, so q is kept.
    /// Without FMA, `addingProduct` would be a libm call per lane: the division stays.
    @inline(__always) static func ninth(_ x: V) -> V {
        #if DAGUERRE_FMA
            let q = x * V(repeating: 1 / 9 as Float)
            let r = x.addingProduct(-q, V(repeating: 9))
            let zero = V.zero
            return q.replacing(with: q.addingProduct(r, V(repeating: 1 / 9 as Float)), where: (r .> zero) .| (r .< zero))
        #else
            return x / V(repeating: 9)
        #endif
    }

    // 2b. The 1-D LMMSE estimate of the difference from nine-sample statistics.
    @inline(__always) static func estimate(_ t1: Taps, _ t2: Taps, _ d: P, _ nc: Int, into e: P) {
        let zero = V.zero
        let epsilon = V(repeating: Self.epsilon)
        sweep(10, nc &- 10) { c in
            var m = zero
            var s2 = zero
            var e2 = zero
            @inline(__always) func add(_ p: P, _ q: P) {
                let v = load(p, c)
                m += v
                s2 += v * v
                e2 += load(q, c)
            }
            add(t1.m4, t2.m4)
            add(t1.m3, t2.m3)
            add(t1.m2, t2.m2)
            add(t1.m1, t2.m1)
            add(t1.z, t2.z)
            add(t1.p1, t2.p1)
            add(t1.p2, t2.p2)
            add(t1.p3, t2.p3)
            add(t1.p4, t2.p4)
            m = ninth(m)
            s2 = ninth(s2)
            e2 = ninth(e2)
            let spread = s2 - m * m
            let sx = spread.replacing(with: zero, where: zero .>= spread) + epsilon
            let sv = e2 + epsilon
            store(m + sx / (sx + sv) * (load(d, c) - m), e, c)
        }
    }

    // 3a. Gradient magnitudes from the raw differences: 5-sample sums of |d(−1) − d(+1)|.
    @inline(__always) static func gradients(_ r: Int, _ nc: Int, _ ws: Workspace) {
        let zero = V.zero
        @inline(__always) func magnitude(_ v: V) -> V { v.replacing(with: -v, where: v .< zero) }
        let h0 = ws.dh[r &- 2]
        let h1 = ws.dh[r &- 1]
        let h2 = ws.dh[r]
        let h3 = ws.dh[r &+ 1]
        let h4 = ws.dh[r &+ 2]
        let up = ws.dv[r &- 1]
        let down = ws.dv[r &+ 1]
        let a = ws.a[r]
        let b = ws.b[r]
        sweep(5, nc &- 5) { c in
            var sa = magnitude(load(h0, c &- 1) - load(h0, c &+ 1))
            sa += magnitude(load(h1, c &- 1) - load(h1, c &+ 1))
            sa += magnitude(load(h2, c &- 1) - load(h2, c &+ 1))
            sa += magnitude(load(h3, c &- 1) - load(h3, c &+ 1))
            sa += magnitude(load(h4, c &- 1) - load(h4, c &+ 1))
            var sb = magnitude(load(up, c &- 2) - load(down, c &- 2))
            sb += magnitude(load(up, c &- 1) - load(down, c &- 1))
            sb += magnitude(load(up, c) - load(down, c))
            sb += magnitude(load(up, c &+ 1) - load(down, c &+ 1))
            sb += magnitude(load(up, c &+ 2) - load(down, c &+ 2))
            store(sa, a, c)
            store(sb, b, c)
        }
    }

    // 3b. The 5×5 sums: across the row for horizontal, down the column for vertical.
    @inline(__always) static func gradientSums(_ r: Int, _ nc: Int, _ ws: Workspace) {
        let a = ws.a[r]
        let b0 = ws.b[r &- 2]
        let b1 = ws.b[r &- 1]
        let b2 = ws.b[r]
        let b3 = ws.b[r &+ 1]
        let b4 = ws.b[r &+ 2]
        let bh = ws.bh[r]
        let bv = ws.bv[r]
        sweep(7, nc &- 7) { c in
            store(load(a, c &- 2) + load(a, c &- 1) + load(a, c) + load(a, c &+ 1) + load(a, c &+ 2), bh, c)
            store(load(b0, c) + load(b1, c) + load(b2, c) + load(b3, c) + load(b4, c), bv, c)
        }
    }

    // 3c. The weights: inverse squares of the sums two samples away in each direction. A
    // site's west weight is the east weight of the site four columns to its left, and its
    // north weight the south weight of the site four rows up: so each sum's inverse square is
    // computed once, where the sum is, and the readers take it two samples away (`Weights`):
    // half the divisions of four weights per site, the same bits.
    @inline(__always) static func weights(_ r: Int, _ nc: Int, _ ws: Workspace) {
        let one = V(repeating: 1)
        let epsilon = V(repeating: Self.epsilon)
        let bh = ws.bh[r]
        let bv = ws.bv[r]
        let h = ws.inverseH[r]
        let v = ws.inverseV[r]
        sweep(7, nc &- 7) { c in
            let x = load(bh, c)
            let y = load(bv, c)
            store(one / (x * x + epsilon), h, c)
            store(one / (y * y + epsilon), v, c)
        }
    }

    /// Row `r`'s four direction weights, from the inverse squares of stage 3c.
    struct Weights {
        let h, north, south: P
        init(_ r: Int, _ ws: Workspace) { (h, north, south) = (ws.inverseH[r], ws.inverseV[r &- 2], ws.inverseV[r &+ 2]) }
        @inline(__always) func at(_ c: Int) -> (n: V, s: V, w: V, e: V) {
            (load(north, c), load(south, c), load(h, c &- 2), load(h, c &+ 2))
        }
    }

    // 4. Green at red and blue sites: the weighted fusion of the one-sided denoised
    // differences; with it (5a) the colour differences G − R and G − B at their own sites.
    @inline(__always) static func fuse(_ r: Int, _ nc: Int, _ ws: Workspace, _ masks: RowMasks) {
        let f0 = V(repeating: f.0)
        let f1 = V(repeating: f.1)
        let f2 = V(repeating: f.2)
        let f3 = V(repeating: f.3)
        let zero = V.zero
        let y = ws.y[r]
        let eh = ws.eh
        let e0 = ws.ev[r]
        let n1 = ws.ev[r &- 1]
        let n2 = ws.ev[r &- 2]
        let n3 = ws.ev[r &- 3]
        let s1 = ws.ev[r &+ 1]
        let s2 = ws.ev[r &+ 2]
        let s3 = ws.ev[r &+ 3]
        let weights = Weights(r, ws)
        let green = ws.green[r]
        let cr = ws.cr[r]
        let cb = ws.cb[r]
        sweep(13, nc &- 13) { c in
            let v = load(y, c)
            let h0 = load(eh, c)
            let v0 = load(e0, c)
            let ew = f0 * h0 + f1 * load(eh, c &- 1) + f2 * load(eh, c &- 2) + f3 * load(eh, c &- 3)
            let ee = f0 * h0 + f1 * load(eh, c &+ 1) + f2 * load(eh, c &+ 2) + f3 * load(eh, c &+ 3)
            let en = f0 * v0 + f1 * load(n1, c) + f2 * load(n2, c) + f3 * load(n3, c)
            let es = f0 * v0 + f1 * load(s1, c) + f2 * load(s2, c) + f3 * load(s3, c)
            let (wn, ws, ww, we) = weights.at(c)
            let fused = v + (wn * en + ws * es + ww * ew + we * ee) / (wn + ws + ww + we)
            let g = fused.replacing(with: v, where: masks.green(c))
            store(g, green, c)
            let difference = g - v
            store(zero.replacing(with: difference, where: masks.red(c)), cr, c)
            store(zero.replacing(with: difference, where: masks.blue(c)), cb, c)
        }
    }

    // 5b. The opposite colour difference at red (or blue) sites by the 7×7 kernel, in place:
    // the kernel reads only diagonal sites, which hold the other colour and are never written.
    @inline(__always) static func opposite(_ p: Ring, _ r: Int, _ nc: Int, _ masks: RowMasks, red: Bool) {
        let ten = V(repeating: 10)
        let thirtyTwo = V(repeating: 32)
        let m3 = p[r &- 3]
        let m1 = p[r &- 1]
        let z = p[r]
        let p1 = p[r &+ 1]
        let p3 = p[r &+ 3]
        sweep(16, nc &- 16) { c in
            let near = load(m1, c &- 1) + load(m1, c &+ 1) + load(p1, c &- 1) + load(p1, c &+ 1)
            var far = load(m3, c &- 1) + load(m3, c &+ 1) + load(m1, c &- 3) + load(m1, c &+ 3)
            far += load(p1, c &- 3) + load(p1, c &+ 3) + load(p3, c &- 1) + load(p3, c &+ 1)
            store(load(z, c).replacing(with: (ten * near - far) / thirtyTwo, where: red ? masks.red(c) : masks.blue(c)), z, c)
        }
    }

    // 6. Green sites' colour differences from their four neighbours, then R, G and B.
    @inline(__always) static func output(_ r: Int, _ nc: Int, _ ws: Workspace, _ masks: RowMasks) {
        let one = V(repeating: 1)
        let h = halo
        let weights = Weights(r, ws)
        let crN = ws.cr[r &- 1]
        let cr = ws.cr[r]
        let crS = ws.cr[r &+ 1]
        let cbN = ws.cb[r &- 1]
        let cb = ws.cb[r]
        let cbS = ws.cb[r &+ 1]
        let green = ws.green[r]
        let y = ws.y[r]
        let outR = ws.outR - h
        let outG = ws.outG - h
        let outB = ws.outB - h
        sweep(h, nc &- h) { c in
            let (wn, ws, ww, we) = weights.at(c)
            let inv = one / (wn + ws + ww + we)
            let ndr = (wn * load(crN, c) + ws * load(crS, c) + ww * load(cr, c &- 1) + we * load(cr, c &+ 1)) * inv
            let ndb = (wn * load(cbN, c) + ws * load(cbS, c) + ww * load(cb, c &- 1) + we * load(cb, c &+ 1)) * inv
            let isGreen = masks.green(c)
            let dr = load(cr, c).replacing(with: ndr, where: isGreen)
            let db = load(cb, c).replacing(with: ndb, where: isGreen)
            let g = load(green, c)
            let v = load(y, c)
            store((g - dr).replacing(with: v, where: masks.red(c)), outR, c)
            store(g, outG, c)
            store((g - db).replacing(with: v, where: masks.blue(c)), outB, c)
        }
    }
}

/// Which lanes of a sixteen-column group are red, green or blue, for a row whose first two
/// workspace columns have colours `first` and `second`; `c` is the group's first column.
struct RowMasks {
    typealias Mask = SIMDMask<SIMD16<Int32>>
    private let redEven: Mask, redOdd: Mask, greenEven: Mask, greenOdd: Mask, blueEven: Mask, blueOdd: Mask

    init(first: Int, second: Int) {
        func mask(_ colour: Int, _ a: Int, _ b: Int) -> Mask {
            var m = Mask(repeating: false)
            for lane in 0..<16 { m[lane] = (lane & 1 == 0 ? a : b) == colour }
            return m
        }
        (redEven, redOdd) = (mask(0, first, second), mask(0, second, first))
        (greenEven, greenOdd) = (mask(1, first, second), mask(1, second, first))
        (blueEven, blueOdd) = (mask(2, first, second), mask(2, second, first))
    }
    @inline(__always) func red(_ c: Int) -> Mask { c & 1 == 0 ? redEven : redOdd }
    @inline(__always) func green(_ c: Int) -> Mask { c & 1 == 0 ? greenEven : greenOdd }
    @inline(__always) func blue(_ c: Int) -> Mask { c & 1 == 0 ? blueEven : blueOdd }
}

/// The colour (0 R, 1 G, 2 B) at image coordinates, for any 2×2 Bayer order.
struct BayerPatternColors: Sendable, Equatable {
    let colors: (Int, Int, Int, Int)
    init(_ cfa: [UInt8]) { colors = (Int(cfa[0]), Int(cfa[1]), Int(cfa[2]), Int(cfa[3])) }
    static func == (a: Self, b: Self) -> Bool { a.colors == b.colors }
    @inline(__always) func color(x: Int, y: Int) -> Int {
        switch (y & 1) << 1 | (x & 1) {
        case 0: colors.0
        case 1: colors.1
        case 2: colors.2
        default: colors.3
        }
    }
}
