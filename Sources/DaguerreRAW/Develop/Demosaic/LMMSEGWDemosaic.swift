// The high-quality demosaic (SPEC X2; issue #5): LMMSE-GW, our own combination of published
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
/// Every stage runs on a padded stripe with a 20-sample halo (the receptive field is 17), so
/// stripes are independent: a streaming source develops band by band, workers stripe by stripe.
///
/// ```swift
/// let workspace = LMMSEGWDemosaic.Workspace(rows: 64, columns: 6000)
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

    /// Fourteen planes for one stripe (about 56 bytes per padded sample).
    final class Workspace {
        let rows: Int, columns: Int, stride: Int, count: Int
        let storage: UnsafeMutablePointer<Float>
        /// At least `lanes` columns, so that every row sweep holds one whole vector.
        init(rows: Int, columns: Int) {
            self.rows = rows; self.columns = max(columns, LMMSEGWDemosaic.lanes)
            stride = self.columns + 2 * LMMSEGWDemosaic.halo
            count = (rows + 2 * LMMSEGWDemosaic.halo) * stride
            storage = .allocate(capacity: 14 * count)
            HugePages.advise(storage, count: 14 * count)
            storage.initialize(repeating: 0, count: 14 * count)
        }
        deinit { storage.deallocate() }
        func plane(_ i: Int) -> UnsafeMutablePointer<Float> { storage + i * count }
        var bytes: Int { 14 * count * 4 }
    }

    // The schedule (Halide's sense: the arithmetic is fixed by the algorithm above and by the
    // scalar reference in the tests, which this matches bit for bit): each stage sweeps a row
    // eight columns at a time as `SIMD8<Float>`, in the reference's order of operations, with a
    // last group that overlaps the one before instead of a scalar tail (no stage reads what it
    // writes in the same row, so recomputing lanes is harmless). Colour decisions become lane
    // masks. Stages 4 and 5a share a sweep, 5b and 6 run one row apart in one sweep, and the
    // weights stay in the planes stage 3 computed them in.
    typealias V = SIMD8<Float>
    static let lanes = 8

    @inline(__always) static func load(_ p: UnsafeMutablePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
    @inline(__always) static func store(_ v: V, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self) }

    /// Calls `body(c)` for groups of eight columns covering lo..<hi (hi − lo ≥ 8), the last one
    /// ending at hi.
    @inline(__always) static func sweep(_ lo: Int, _ hi: Int, _ body: (Int) -> Void) {
        var c = lo
        while c + lanes <= hi { body(c); c += lanes }
        if c < hi { body(hi - lanes) }
    }

    /// Demosaics output `rows` × `columns` (image coordinates); `write(y, x0, count, r, g, b)`
    /// receives a row segment of sRGB-encoded R, G and B planes (sampled values kept exactly).
    /// Rows go in and out whole, so the caller's per-sample work runs in tight loops.
    static func stripe(rows: Range<Int>, columns: Range<Int>, pattern: BayerPatternColors, workspace ws: Workspace,
                       fill: (_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) -> Void,
                       write: (_ y: Int, _ x0: Int, _ count: Int, _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> Void) {
        let h = halo
        // Narrow stripes are widened to one vector (fill mirrors any coordinate); only the
        // requested columns are written.
        let width = max(columns.count, lanes)
        let nr = rows.count + 2 * h, nc = width + 2 * h, n = ws.stride
        precondition(rows.count <= ws.rows && width <= ws.columns, "workspace too small")
        let y = ws.plane(0), dh = ws.plane(1), dv = ws.plane(2), eh = ws.plane(3), ev = ws.plane(4)
        let t1 = ws.plane(5), t2 = ws.plane(6)
        let bh = ws.plane(7), bv = ws.plane(8), south = ws.plane(9), north = ws.plane(10)
        let green = ws.plane(11), cr = ws.plane(12), cb = ws.plane(13)
        let row0 = rows.lowerBound - h, col0 = columns.lowerBound - h
        // Lane masks of row r for a group starting at an even or odd workspace column, built
        // once per row (a lane-wise comparison inside the sweeps would not vectorize).
        @inline(__always) func laneMasks(_ r: Int) -> RowMasks {
            RowMasks(first: pattern.color(x: col0, y: row0 + r), second: pattern.color(x: col0 + 1, y: row0 + r))
        }
        let zero = V.zero, epsilon = V(repeating: Self.epsilon)

        // 0. The encoded mosaic with its halo.
        for r in 0..<nr { fill(row0 + r, col0, nc, y + r * n) }
        // 1. Hamilton–Adams: d estimates G − X along each direction.
        let half = V(repeating: 0.5), quarter = V(repeating: 0.25)
        for r in 2..<(nr - 2) {
            let masks = laneMasks(r)
            sweep(2, nc - 2) { c in
                let i = r * n + c, v = load(y + i)
                let fh = half * (load(y + i - 1) + load(y + i + 1) + v) - quarter * (load(y + i - 2) + load(y + i + 2))
                let fv = half * (load(y + i - n) + load(y + i + n) + v) - quarter * (load(y + i - 2 * n) + load(y + i + 2 * n))
                let isGreen = masks.green(c)
                store((fh - v).replacing(with: v - fh, where: isGreen), dh + i)
                store((fv - v).replacing(with: v - fv, where: isGreen), dv + i)
            }
        }
        // 2. 1-D LMMSE of each difference along its own direction.
        let g0 = V(repeating: gauss[0]), g1 = V(repeating: gauss[1]), g2 = V(repeating: gauss[2])
        let g3 = V(repeating: gauss[3]), g4 = V(repeating: gauss[4]), nine = V(repeating: 9)
        for (d, e, st) in [(dh, eh, 1), (dv, ev, n)] {
            for r in 6..<(nr - 6) {
                sweep(6, nc - 6) { c in
                    let i = r * n + c, di = load(d + i)
                    var s = g0 * di
                    s += g1 * (load(d + i - st) + load(d + i + st)) + g2 * (load(d + i - 2 * st) + load(d + i + 2 * st))
                    s += g3 * (load(d + i - 3 * st) + load(d + i + 3 * st)) + g4 * (load(d + i - 4 * st) + load(d + i + 4 * st))
                    store(s, t1 + i)
                    let q = di - s
                    store(q * q, t2 + i)
                }
            }
            for r in 10..<(nr - 10) {
                sweep(10, nc - 10) { c in
                    let i = r * n + c
                    var m = zero, s2 = zero, e2 = zero
                    for k in -4...4 { let v = load(t1 + i + k * st); m += v; s2 += v * v; e2 += load(t2 + i + k * st) }
                    m /= nine; s2 /= nine; e2 /= nine
                    let spread = s2 - m * m
                    let sx = spread.replacing(with: zero, where: zero .>= spread) + epsilon, sv = e2 + epsilon
                    store(m + sx / (sx + sv) * (load(d + i) - m), e + i)
                }
            }
        }
        // 3. Gradient weights from the raw differences: 5×5 sums of |d(−1) − d(+1)|, then the
        // inverse squares of the sums two samples away in each direction.
        @inline(__always) func magnitude(_ v: V) -> V { v.replacing(with: -v, where: v .< zero) }
        for r in 5..<(nr - 5) {
            sweep(5, nc - 5) { c in
                let i = r * n + c
                var a = zero, b = zero
                for k in -2...2 {
                    let j = i + k * n; a += magnitude(load(dh + j - 1) - load(dh + j + 1))
                    let j2 = i + k; b += magnitude(load(dv + j2 - n) - load(dv + j2 + n))
                }
                store(a, t1 + i); store(b, t2 + i)
            }
        }
        for r in 7..<(nr - 7) {
            sweep(7, nc - 7) { c in
                let i = r * n + c
                store(load(t1 + i - 2) + load(t1 + i - 1) + load(t1 + i) + load(t1 + i + 1) + load(t1 + i + 2), bh + i)
                store(load(t2 + i - 2 * n) + load(t2 + i - n) + load(t2 + i) + load(t2 + i + n) + load(t2 + i + 2 * n), bv + i)
            }
        }
        let one = V(repeating: 1)
        let west = t1, east = t2
        for r in 9..<(nr - 9) {
            sweep(9, nc - 9) { c in
                let i = r * n + c
                let bw = load(bh + i - 2), be = load(bh + i + 2), bn = load(bv + i - 2 * n), bs = load(bv + i + 2 * n)
                store(one / (bw * bw + epsilon), west + i); store(one / (be * be + epsilon), east + i)
                store(one / (bs * bs + epsilon), south + i); store(one / (bn * bn + epsilon), north + i)
            }
        }
        // 4. Green at red and blue sites: the weighted fusion of the one-sided denoised
        // differences; with it (5a) the colour differences G − R and G − B at their own sites.
        let f0 = V(repeating: f.0), f1 = V(repeating: f.1), f2 = V(repeating: f.2), f3 = V(repeating: f.3)
        for r in 13..<(nr - 13) {
            let masks = laneMasks(r)
            sweep(13, nc - 13) { c in
                let i = r * n + c, v = load(y + i)
                let ew = f0 * load(eh + i) + f1 * load(eh + i - 1) + f2 * load(eh + i - 2) + f3 * load(eh + i - 3)
                let ee = f0 * load(eh + i) + f1 * load(eh + i + 1) + f2 * load(eh + i + 2) + f3 * load(eh + i + 3)
                let en = f0 * load(ev + i) + f1 * load(ev + i - n) + f2 * load(ev + i - 2 * n) + f3 * load(ev + i - 3 * n)
                let es = f0 * load(ev + i) + f1 * load(ev + i + n) + f2 * load(ev + i + 2 * n) + f3 * load(ev + i + 3 * n)
                let wn = load(north + i), ws = load(south + i), ww = load(west + i), we = load(east + i)
                let fused = v + (wn * en + ws * es + ww * ew + we * ee) / (wn + ws + ww + we)
                let g = fused.replacing(with: v, where: masks.green(c))
                store(g, green + i)
                let difference = g - v
                store(zero.replacing(with: difference, where: masks.red(c)), cr + i)
                store(zero.replacing(with: difference, where: masks.blue(c)), cb + i)
            }
        }
        // 5b. The opposite colour difference at red and blue sites by the 7×7 kernel, and one
        // row behind it (its rows ±1 are final) 6: green sites from their four neighbours, then
        // R, G and B a row at a time into planes that are no longer read.
        let outR = bh, outG = bv, outB = dh
        let ten = V(repeating: 10), thirtyTwo = V(repeating: 32)
        @inline(__always) func opposite(_ p: UnsafeMutablePointer<Float>, _ r: Int, red: Bool) {
            let masks = laneMasks(r)
            sweep(16, nc - 16) { c in
                let i = r * n + c
                let near = load(p + i - n - 1) + load(p + i - n + 1) + load(p + i + n - 1) + load(p + i + n + 1)
                var far = load(p + i - 3 * n - 1) + load(p + i - 3 * n + 1) + load(p + i - n - 3) + load(p + i - n + 3)
                far += load(p + i + n - 3) + load(p + i + n + 3) + load(p + i + 3 * n - 1) + load(p + i + 3 * n + 1)
                store(load(p + i).replacing(with: (ten * near - far) / thirtyTwo, where: red ? masks.red(c) : masks.blue(c)), p + i)
            }
        }
        @inline(__always) func output(_ r: Int) {
            let masks = laneMasks(r)
            sweep(h, nc - h) { c in
                let i = r * n + c
                let wn = load(north + i), ws = load(south + i), ww = load(west + i), we = load(east + i)
                let inv = one / (wn + ws + ww + we)
                let ndr = (wn * load(cr + i - n) + ws * load(cr + i + n) + ww * load(cr + i - 1) + we * load(cr + i + 1)) * inv
                let ndb = (wn * load(cb + i - n) + ws * load(cb + i + n) + ww * load(cb + i - 1) + we * load(cb + i + 1)) * inv
                let isGreen = masks.green(c)
                let dr = load(cr + i).replacing(with: ndr, where: isGreen), db = load(cb + i).replacing(with: ndb, where: isGreen)
                let g = load(green + i), v = load(y + i), o = c - h
                store((g - dr).replacing(with: v, where: masks.red(c)), outR + o)
                store(g, outG + o)
                store((g - db).replacing(with: v, where: masks.blue(c)), outB + o)
            }
            write(row0 + r, col0 + h, columns.count, outR, outG, outB)
        }
        for r in 16..<(nr - 16) {
            let a = pattern.color(x: col0, y: row0 + r), b = pattern.color(x: col0 + 1, y: row0 + r)
            if a == 2 || b == 2 { opposite(cr, r, red: false) }
            if a == 0 || b == 0 { opposite(cb, r, red: true) }
            if r - 1 >= h, r - 1 < nr - h { output(r - 1) }
        }
    }
}

/// Which lanes of an eight-column group are red, green or blue, for a row whose first two
/// workspace columns have colours `first` and `second`; `c` is the group's first column.
struct RowMasks {
    typealias Mask = SIMDMask<SIMD8<Int32>>
    private let redEven: Mask, redOdd: Mask, greenEven: Mask, greenOdd: Mask, blueEven: Mask, blueOdd: Mask

    init(first: Int, second: Int) {
        func mask(_ colour: Int, _ a: Int, _ b: Int) -> Mask {
            var m = Mask(repeating: false)
            for lane in 0..<8 { m[lane] = (lane & 1 == 0 ? a : b) == colour }
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
struct BayerPatternColors: Sendable {
    let colors: (Int, Int, Int, Int)
    init(_ cfa: [UInt8]) { colors = (Int(cfa[0]), Int(cfa[1]), Int(cfa[2]), Int(cfa[3])) }
    @inline(__always) func color(x: Int, y: Int) -> Int {
        switch (y & 1) << 1 | (x & 1) { case 0: colors.0; case 1: colors.1; case 2: colors.2; default: colors.3 }
    }
}
