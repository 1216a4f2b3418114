// The core of raw noise reduction (SPEC X3): DCT4-2S, a two-stage 4×4
// sliding-window DCT denoiser for one variance-stabilized CFA plane, as specified by the
// project's noise research (REPORT §3; 39.26 / 36.57 dB on its ISO 1600 / 3200 protocol, within
// 0.15 dB of BM3D). It combines published parts: sliding-window DCT denoising (Yu and Sapiro,
// IPOL 2011) and BM3D's empirical-Wiener second stage and aggregation weights (Dabov et al.
// 2007) without block matching. Our own code: no Debian library denoises raw CFA planes, and
// none has this method.
import DaguerreCore
import Foundation

/// Denoises one plane whose noise has standard deviation 1 (after ``GeneralizedAnscombe``).
///
/// Every 4×4 block at stride 1 is transformed by the orthonormal DCT-II. Stage 1 keeps the DC
/// and the coefficients above 2.5·a, inverts, and averages the overlapping blocks with weight
/// 1/kept into a pilot p. Stage 2 transforms the same noisy blocks and the pilot's blocks,
/// applies the Wiener gain P²/(P² + a²), inverts, and averages with weight 1/ΣG². The plane is
/// extended by 3 samples of whole-sample mirroring on each side, so every sample is covered by
/// 16 blocks. `a` is the amount (1: the noise profile as given).
///
/// Core Image's detail and contrast controls (X1, X3; ``NoiseReductionControls``) reach it as a
/// per-coefficient factor s on the assumed σ: threshold 2.5·a·s, Wiener noise power a²·s². They
/// are per-pass constants that the loops read as memory operands, so the default (every s
/// exactly 1) computes the same bits in no more instructions: stage 1 tests −|c| < −T (the sign
/// bit set, one compare against the loaded constant) where it tested c > T or c < −T (two
/// compares and an or against registers), and stage 2 adds a loaded noise power instead of a
/// register (checked in the optimized assembly: 7 instead of 8 vector instructions per stage-1
/// coefficient, the same count in stage 2).
///
/// Evaluation (REPORT §4): row DCTs of each extended row are computed once into a 4-row ring, a
/// block's column DCT combines 4 ring rows, and 8 adjacent block columns go through together as
/// `SIMD8<Float>` lanes; inverse transforms are scattered into numerator and denominator planes.
///
/// The object is a reusable workspace for planes up to `maxRows` × `maxColumns` samples; one per
/// thread.
///
/// ```swift
/// let d = try DCT4PlaneDenoiser(maxRows: 160, maxColumns: 3000)
/// for r in 0..<rows { let row = d.inputRow(r); for c in 0..<columns { row[c] = stabilized(r, c) } }
/// d.denoise(rows: rows, columns: columns, amount: 1)     // or noiseScales: controls.coefficientNoiseScales
/// for r in 0..<rows { let z = d.outputRow(r) /* z[c] for c in 0..<columns */ }
/// ```
final class DCT4PlaneDenoiser {
    typealias V = SIMD8<Float>
    /// Mirror extension on each side (block size − 1).
    static let pad = 3
    /// Stage 1 threshold in units of the noise σ (REPORT §3: flat over 2.3–2.7).
    static let threshold: Float = 2.5
    /// The first stage's negated threshold −2.5·a·s for the amount `a` and a coefficient's
    /// noise scale `s`, in this order of operations (s = 1 gives the bits of −2.5·a).
    @inline(__always) static func negativeThreshold(amount: Float, scale: Float) -> Float { -(threshold * amount * scale) }
    /// Whole-sample distance from an output sample to the farthest input of its plane it
    /// depends on: 3 (pilot) + 3 (Wiener stage). (Version 7's joint pilot reads the other
    /// planes' samples of the same 2×2 cells too: ``MosaicNoiseReduction/halo(_:)``.)
    static let reach = 6

    let maxRows: Int, maxColumns: Int
    /// Floats per extended row: the extended width rounded up to whole SIMD groups, plus slack
    /// for the last group's reads and writes.
    let stride: Int
    private let extendedRows: Int
    /// The stabilized plane y (extended), the pilot p (extended; the result z after `denoise`).
    private let y: UnsafeMutablePointer<Float>, p: UnsafeMutablePointer<Float>
    /// Where every float buffer below lives.
    private let memory: ZeroedBuffer
    /// The aggregation numerator and denominator: rings of the 4 extended rows that a block row
    /// covers. A row is divided out into p as soon as no later block covers it, so the sums are
    /// read back from cache instead of from two whole planes (and no plane is cleared).
    private let num: UnsafeMutablePointer<Float>, den: UnsafeMutablePointer<Float>
    /// Row DCTs of the last four extended rows of y and of p: 4 slots × 4 frequencies × stride.
    private let ringY: UnsafeMutablePointer<Float>, ringP: UnsafeMutablePointer<Float>
    /// The pass's per-coefficient constants: negated thresholds (16) and Wiener noise powers
    /// (16), which the block loop reads as memory operands.
    private let block: UnsafeMutablePointer<V>
    private static let blockSlots = 32

    /// Allocates a workspace; throws if the size is over `limits` (checked before allocating).
    init(maxRows: Int, maxColumns: Int, limits: Limits = .default) throws(DaguerreError) {
        guard maxRows >= 1, maxColumns >= 1 else {
            throw .invalidArgument(what: "noise reduction plane \(maxColumns)×\(maxRows)", problem: "must be at least 1×1")
        }
        try limits.check(width: maxColumns, height: maxRows, bytesPerPixel: 4 * 4, what: "noise reduction plane")
        let groups = (maxColumns + Self.pad + 7) / 8
        // 32 floats of slack: the step-2 pass keeps each row as two halves of `stride / 2`
        // (even and odd extended columns), and its last lane group reads one past a half's end.
        stride = groups * 8 + 32
        extendedRows = maxRows + 2 * Self.pad
        try limits.check(width: stride, height: extendedRows, bytesPerPixel: 4 * 4, what: "noise reduction workspace")
        self.maxRows = maxRows
        self.maxColumns = maxColumns
        let planeCount = extendedRows * stride
        // Every float buffer is one zero-filled mapping (``ZeroedBuffer``: huge pages, and no
        // serial clearing on the thread that makes the workspaces): the two planes, then the
        // accumulator rings (8 rows), the row-DCT rings (16 rows each) and the split row.
        let floats = 2 * planeCount + 41 * stride
        memory = ZeroedBuffer(byteCount: floats * MemoryLayout<Float>.stride)
        y = memory.pointer.bindMemory(to: Float.self, capacity: floats)
        p = y + planeCount
        num = y + 2 * planeCount
        den = num + 4 * stride
        ringY = num + 8 * stride
        ringP = ringY + 16 * stride
        split = ringP + 16 * stride
        block = .allocate(capacity: Self.blockSlots)
        block.initialize(repeating: .zero, count: Self.blockSlots)
    }

    deinit { block.deallocate() }

    /// One extended row split by column parity (even columns, then odd ones from `stride / 2`),
    /// for the step-2 pass's row transforms.
    private let split: UnsafeMutablePointer<Float>

    /// Where row `r` (0..<rows) of the stabilized input goes: `columns` floats.
    func inputRow(_ r: Int) -> UnsafeMutablePointer<Float> { y + (r + Self.pad) * stride + Self.pad }

    /// Mirrors input rows `rows` (written through ``inputRow(_:)``) past the plane's left and
    /// right edges, as ``denoise(rows:columns:amount:noiseScales:blockStep:givenPilot:)`` does
    /// first, and a fourth sample past the right edge (which that leaves 0, and the joint
    /// pilot's last block reads where a plane is one column shorter than another): each row then
    /// reads 3 mirrored samples on the left, 4 on the right (`columns` ≥ 5), then zeros.
    func extendInputColumns(rows: Range<Int>, columns: Int) {
        guard columns >= 5, columns <= maxColumns, rows.lowerBound >= 0, rows.upperBound <= maxRows else { return }
        for r in rows {
            let row = y + (r + Self.pad) * stride
            extendRow(row, columns: columns)
            row[Self.pad + columns + 3] = row[Self.pad + columns - 5]
        }
    }

    /// Where row `r` (0..<rows) of a pilot made elsewhere goes (``JointCFAPilot``): `columns`
    /// floats, read by ``denoise(rows:columns:amount:noiseScales:blockStep:givenPilot:)`` with
    /// `givenPilot` true.
    func pilotRow(_ r: Int) -> UnsafeMutablePointer<Float> { p + (r + Self.pad) * stride + Self.pad }

    /// Row `r` of the denoised result (still stabilized), valid after ``denoise(rows:columns:amount:noiseScales:blockStep:givenPilot:)``.
    func outputRow(_ r: Int) -> UnsafePointer<Float> { UnsafePointer(p + (r + Self.pad) * stride + Self.pad) }

    /// Denoises the `rows` × `columns` plane written through ``inputRow(_:)``; both at least 4 and
    /// at most the workspace's size (smaller planes are left as they are, the result then equals
    /// the input), `amount` > 0. `noiseScales` (index 4u + v) scales the noise σ assumed for
    /// each coefficient (``NoiseReductionControls/coefficientNoiseScales``; all 1 by default).
    /// `blockStep` is 1 (every block, DCT4-2S as specified: pipeline version 3) or 2 (blocks at
    /// even extended rows and columns, each sample covered by 4 blocks instead of 16: a quarter
    /// of the work, pipeline version 4; see ``BlockStep``). With `givenPilot`, the first stage is
    /// not run: the Wiener stage reads the pilot written through ``pilotRow(_:)`` (version 7).
    func denoise(
        rows: Int, columns: Int, amount: Float, noiseScales: SIMD16<Float> = SIMD16(repeating: 1), blockStep: BlockStep = .every,
        givenPilot: Bool = false
    ) {
        guard rows >= 4, columns >= 4, rows <= maxRows, columns <= maxColumns, amount > 0, amount.isFinite else {
            for r in 0..<min(rows, maxRows) {
                (p + (r + Self.pad) * stride + Self.pad).update(from: inputRow(r), count: min(columns, maxColumns))
            }
            return
        }
        extend(y, rows: rows, columns: columns)
        // Stage 1 makes the pilot p = num/den; stage 2 reads it (extended like y) and leaves z in p.
        for pilot in givenPilot ? [true] : [false, true] {
            if pilot { extend(p, rows: rows, columns: columns) }
            pass(rows: rows, columns: columns, amount: amount, noiseScales: noiseScales, pilot: pilot, step: blockStep)
        }
    }

    /// Which 4×4 blocks the two stages visit.
    enum BlockStep: Sendable, Hashable {
        /// Every block origin (stride 1): each sample is covered by 16 blocks (REPORT §3).
        case every
        /// Block origins on even extended rows and columns (stride 2, origins at plane
        /// coordinates −3, −1, 1, …): each sample is covered by 4 blocks. The noise research
        /// measured 38.85 / 36.11 dB on its ISO 1600 / 3200 protocol against 39.26 / 36.57 for
        /// `.every` (research/noise/scratch/s_stride.py), for a quarter of the arithmetic.
        case alternate
    }

    /// One extended row's mirrored columns, and its slack cleared (the last SIMD group reads it:
    /// it must be finite).
    @inline(__always) private func extendRow(_ row: UnsafeMutablePointer<Float>, columns: Int) {
        let pad = Self.pad
        for k in 1...pad {
            row[pad - k] = row[pad + k]
            row[pad + columns - 1 + k] = row[pad + columns - 1 - k]
        }
        (row + columns + 2 * pad).update(repeating: 0, count: stride - columns - 2 * pad)
    }

    /// Whole-sample mirroring by `pad` on each side: v(−k) = v(k), v(n−1+k) = v(n−1−k).
    private func extend(_ plane: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
        let pad = Self.pad
        for r in 0..<rows { extendRow(plane + (r + pad) * stride, columns: columns) }
        for k in 1...pad {
            (plane + (pad - k) * stride).update(from: plane + (pad + k) * stride, count: stride)
            (plane + (pad + rows - 1 + k) * stride).update(from: plane + (pad + rows - 1 - k) * stride, count: stride)
        }
    }

    // The orthonormal 4-point DCT-II, D[u][k] = c_u·cos(π(2k+1)u/8), c_0 = 1/2, c_u = 1/√2.
    private static let d0: Float = 0.5
    private static let d10 = Float(0.5.squareRoot() * cosPi(1.0 / 8)), d11 = Float(0.5.squareRoot() * cosPi(3.0 / 8))
    private static let d20: Float = 0.5
    private static let d30 = Float(0.5.squareRoot() * cosPi(3.0 / 8)), d31 = Float(0.5.squareRoot() * cosPi(9.0 / 8))
    private static func cosPi(_ t: Double) -> Double { cos(Double.pi * t) }
    /// D[v][q], the matrix the butterflies below compute (for transforms written as products:
    /// ``JointCFAPilot``).
    static let matrix: [[Float]] = [[d0, d0, d0, d0], [d10, d11, -d11, -d10], [d20, -d20, -d20, d20], [d30, d31, -d31, -d30]]

    /// Forward 1-D DCT of (a, b, c, d) by even/odd butterflies.
    @inline(__always) static func forward(_ a: V, _ b: V, _ c: V, _ d: V) -> (V, V, V, V) {
        let s0 = a + d
        let s1 = b + c
        let e0 = a - d
        let e1 = b - c
        return (d0 * (s0 + s1), d10 * e0 + d11 * e1, d20 * (s0 - s1), d30 * e0 + d31 * e1)
    }

    /// Inverse 1-D DCT: x[k] = Σ_u D[u][k]·X[u].
    @inline(__always) static func inverse(_ a: V, _ b: V, _ c: V, _ e: V) -> (V, V, V, V) {
        // D[0][1] = D[0][0], D[2][1] = −D[2][0], D[1][1] = d11, D[3][1] = d31 (see forward).
        let e0 = d0 * a + d20 * c
        let e1 = d0 * a - d20 * c
        let o0 = d10 * b + d30 * e
        let o1 = d11 * b + d31 * e
        return (e0 + o0, e1 + o1, e1 - o1, e0 - o0)
    }

    /// −|v|: the sign bit set. `−|c| < −T` is `|c| > T` exactly (negation is exact), and NaN
    /// compares false either way.
    @inline(__always) static func negativeMagnitude(_ v: V) -> V {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) | SIMD8(repeating: 0x8000_0000), to: V.self)
    }

    @inline(__always) static func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
    @inline(__always) private static func store(_ v: V, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }

    // Accumulating a block group's contributions. A group adds vectors at column offsets that
    // overlap (0 and 1, or 0…3): as separate read-modify-writes, each read would partly overlap
    // the store just before it, which the CPU cannot forward (it waits for the store to reach
    // the cache: 40 % of this pass in perf). So the sums stay in registers, moved down a lane,
    // and only the one new column is read. Each sample still receives the same additions in the
    // same order: the bits are those of separate read-modify-writes.

    /// Lanes 1…7 of `v`, then `next`.
    @inline(__always) private static func shifted(_ v: V, _ next: Float) -> V { V(v[1], v[2], v[3], v[4], v[5], v[6], v[7], next) }

    /// p[0…7] += a, then p[1…8] += b.
    @inline(__always) private static func accumulate(_ a: V, _ b: V, _ p: UnsafeMutablePointer<Float>) {
        let first = load(p) + a
        store(first, p)
        store(shifted(first, p[8]) + b, p + 1)
    }

    /// p[0…7] += a, p[1…8] += b, p[2…9] += c, then p[3…10] += d.
    @inline(__always) private static func accumulate(_ a: V, _ b: V, _ c: V, _ d: V, _ p: UnsafeMutablePointer<Float>) {
        let first = load(p) + a
        store(first, p)
        let second = shifted(first, p[8]) + b
        store(second, p + 1)
        let third = shifted(second, p[9]) + c
        store(third, p + 2)
        store(shifted(third, p[10]) + d, p + 3)
    }

    /// One stage over the extended plane: hard threshold (pilot false) or Wiener with the pilot
    /// in `p` (pilot true), accumulated into `num` and `den`, at either block step.
    ///
    /// Eight adjacent block origins go through together as vector lanes. At step 1 they are 8
    /// consecutive columns, so a block's 4 columns are 4 consecutive loads. At step 2 each row is
    /// first split by column parity (`split`: even extended columns, then odd ones at
    /// `stride / 2`), so that origins 0, 2, …, 14 are one vector: block m covers columns
    /// 2m…2m + 3, which are even[m], odd[m], even[m + 1], odd[m + 1]. The accumulators keep the
    /// same split (column offsets 0, half, 1, half + 1); `denoise` interleaves them back. The
    /// denominator needs only the even half of the even rows (see the block loop).
    private func pass(rows: Int, columns: Int, amount: Float, noiseScales: SIMD16<Float>, pilot: Bool, step: BlockStep) {
        let s = stride
        let half = s / 2
        let alternate = step == .alternate
        let extendedColumns = columns + 2 * Self.pad
        // Block origins in extended coordinates: every one up to columns + 2, or the even ones.
        let origins = alternate ? (columns + 2) / 2 + 1 : columns + Self.pad
        let blockRows = alternate ? (rows + 2) / 2 + 1 : rows + Self.pad
        let rowStep = alternate ? 2 : 1
        // Where a block's 4 columns are, from its origin's lane: in the row being transformed,
        // and in the accumulators.
        let (l1, l2, l3) = alternate ? (half, 1, half + 1) : (1, 2, 3)
        // Locals, so that the stores through the accumulators cannot make LLVM reload them.
        let yb = UnsafePointer(y)
        let pb = UnsafePointer(p)
        let ry = ringY
        let rp = ringP
        let num = num
        let den = den
        let split = split
        // Per coefficient: the negated threshold −2.5·a·s and the noise power a²·s², in this order
        // of operations so that s = 1 gives the bits of 2.5·a and a·a.
        let negativeThreshold = block
        let noisePower = block + 16
        for t in 0..<16 {
            let scale = noiseScales[t]
            negativeThreshold[t] = V(repeating: Self.negativeThreshold(amount: amount, scale: scale))
            noisePower[t] = V(repeating: amount * amount * (scale * scale))
        }
        if alternate { split.update(repeating: 0, count: s) }
        num.update(repeating: 0, count: 8 * s)
        // Extended row `r`, which no block still to come covers: p = num/den there (interior rows
        // only), and its ring slots cleared for row r + 4.
        let pw = p
        let pairs = (columns + Self.pad) / 2 + 1
        @inline(__always) func finish(_ r: Int) {
            // At step 2 an odd row's denominator is the even row's above it (see the block loop).
            let nr = num + (r & 3) * s
            let dr = den + ((alternate ? r & ~1 : r) & 3) * s
            if r >= Self.pad, r < Self.pad + rows {
                let pr = pw + r * s
                if alternate {
                    // The accumulators hold even extended columns in the first half of the row
                    // and odd ones in the second: interleave them back while dividing. Pairs of
                    // extended columns 2m, 2m + 1 from m = 1 (columns 2 and 3) until the last
                    // interior column, n + 2; the mirrored columns written on the way (2, and
                    // n + 3 at most) are covered by blocks, so finite, and re-mirrored before use.
                    for m in 1..<pairs {
                        pr[2 &* m] = nr[m] / dr[m]
                        pr[2 &* m &+ 1] = nr[half &+ m] / dr[m]
                    }
                } else {
                    for c in Self.pad..<(Self.pad + columns) { pr[c] = nr[c] / dr[c] }
                }
            }
            nr.update(repeating: 0, count: s)
            if !alternate { dr.update(repeating: 0, count: s) } else if r & 1 == 1 { dr.update(repeating: 0, count: half) }
        }
        // The row DCT of extended row `r` at the block origins, into ring slot r mod 4:
        // `out[v·stride + j]` = Σ_l D[v][l]·column l of block j.
        @inline(__always) func transform(_ plane: UnsafePointer<Float>, _ ring: UnsafeMutablePointer<Float>, _ r: Int) {
            var row = plane + r * s
            if alternate {
                let even = split
                let odd = split + half
                // Eight pairs per step, by two shuffles of one 16-float load (this pass 5 %
                // faster than with a loop per parity). The last step may read up to 14 floats
                // past the extended row, within its zeroed slack. What it writes past the last
                // pair reaches only the lanes after the last block origin, whose sums land in
                // mirrored columns (see `finish`), as the stale values there did before.
                var m = 0
                while m < (extendedColumns + 1) / 2 {
                    let v = UnsafeRawPointer(row + 2 &* m).loadUnaligned(as: SIMD16<Float>.self)
                    Self.store(V(v[0], v[2], v[4], v[6], v[8], v[10], v[12], v[14]), even + m)
                    Self.store(V(v[1], v[3], v[5], v[7], v[9], v[11], v[13], v[15]), odd + m)
                    m &+= 8
                }
                row = UnsafePointer(split)
            }
            let out = ring + (r & 3) * 4 * s
            var j = 0
            while j < origins {
                let (x0, x1, x2, x3) = Self.forward(
                    Self.load(row + j), Self.load(row + j + l1), Self.load(row + j + l2), Self.load(row + j + l3))
                Self.store(x0, out + j)
                Self.store(x1, out + s + j)
                Self.store(x2, out + 2 * s + j)
                Self.store(x3, out + 3 * s + j)
                j += 8
            }
        }
        let one = V(repeating: 1)
        let zero = V.zero
        let floor = V(repeating: 1e-6)
        var transformed = 0
        // A block group's coefficients (c), their inverse by columns (a) and a pilot column (q)
        // live on the stack, not in the workspace's heap block: LLVM then knows that the stores
        // through the accumulators cannot touch them and keeps more of them in registers
        // (DCT4-2S's CPU samples in a 24 MP develop −8 %, the same bits).
        withUnsafeTemporaryAllocation(of: V.self, capacity: 36) { scratch in
            let c = scratch.baseAddress!
            let a = c + 16
            let q = c + 32
            for bi in 0..<blockRows {
                let i = rowStep * bi
                // The block row needs extended rows i…i + 3 in the ring.
                while transformed < i + 4 {
                    transform(yb, ry, transformed)
                    if pilot { transform(pb, rp, transformed) }
                    transformed += 1
                }
                let y0 = UnsafePointer(ry + (i & 3) * 4 * s)
                let y1 = UnsafePointer(ry + ((i + 1) & 3) * 4 * s)
                let y2 = UnsafePointer(ry + ((i + 2) & 3) * 4 * s)
                let y3 = UnsafePointer(ry + ((i + 3) & 3) * 4 * s)
                let p0 = UnsafePointer(rp + (i & 3) * 4 * s)
                let p1 = UnsafePointer(rp + ((i + 1) & 3) * 4 * s)
                let p2 = UnsafePointer(rp + ((i + 2) & 3) * 4 * s)
                let p3 = UnsafePointer(rp + ((i + 3) & 3) * 4 * s)
                var j = 0
                while j < origins {
                    // Column DCTs: c[4u + v] = C[u][v].
                    for v in 0..<4 {
                        let o = v * s + j
                        let (c0, c1, c2, c3) = Self.forward(Self.load(y0 + o), Self.load(y1 + o), Self.load(y2 + o), Self.load(y3 + o))
                        c[v] = c0
                        c[4 + v] = c1
                        c[8 + v] = c2
                        c[12 + v] = c3
                    }
                    var weight: V
                    if !pilot {
                        var kept = one  // the DC is always kept
                        for t in 1..<16 {
                            let keep = Self.negativeMagnitude(c[t]) .< negativeThreshold[t]  // |c| > T
                            c[t] = zero.replacing(with: c[t], where: keep)
                            kept = kept.replacing(with: kept + one, where: keep)
                        }
                        weight = one / kept
                    } else {
                        var energy = zero
                        for v in 0..<4 {
                            let o = v * s + j
                            let (q0, q1, q2, q3) = Self.forward(Self.load(p0 + o), Self.load(p1 + o), Self.load(p2 + o), Self.load(p3 + o))
                            q[0] = q0
                            q[1] = q1
                            q[2] = q2
                            q[3] = q3
                            for u in 0..<4 {
                                let power = q[u] * q[u]
                                let gain = power / (power + noisePower[4 * u + v])
                                c[4 * u + v] = c[4 * u + v] * gain
                                energy = energy.addingProduct(gain, gain)
                            }
                        }
                        weight = one / energy.replacing(with: floor, where: energy .< floor)
                    }
                    // Inverse: columns (over u) with the weight folded in, then rows (over v).
                    for v in 0..<4 {
                        let (x0, x1, x2, x3) = Self.inverse(c[v] * weight, c[4 + v] * weight, c[8 + v] * weight, c[12 + v] * weight)
                        a[v] = x0
                        a[4 + v] = x1
                        a[8 + v] = x2
                        a[12 + v] = x3
                    }
                    for k in 0..<4 {
                        let (e0, e1, e2, e3) = Self.inverse(a[4 * k], a[4 * k + 1], a[4 * k + 2], a[4 * k + 3])
                        let nr = num + ((i + k) & 3) * s + j
                        let dr = den + ((i + k) & 3) * s + j
                        if alternate {
                            Self.accumulate(e0, e2, nr)
                            Self.accumulate(e1, e3, nr + half)
                            // Rows 2m and 2m + 1 are covered by the same two block rows (origins are
                            // even), and so are columns 2m and 2m + 1 by the same two block columns:
                            // the four denominators are equal, sum for sum. Only the even row's even
                            // columns are accumulated, and `finish` divides the other three by them.
                            if k & 1 == 0 { Self.accumulate(weight, weight, dr) }
                        } else {
                            Self.accumulate(e0, e1, e2, e3, nr)
                            Self.accumulate(weight, weight, weight, weight, dr)
                        }
                    }
                    j += 8
                }
                // Rows i (and i + 1 at step 2) are complete: the next block row starts below them.
                finish(i)
                if alternate { finish(i + 1) }
            }
        }
        // The last block row's remaining rows.
        let last = rowStep * (blockRows - 1)
        for r in (last + rowStep)...(last + 3) { finish(r) }
    }
}
