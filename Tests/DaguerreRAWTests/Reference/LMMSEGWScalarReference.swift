// The plain scalar reference for LMMSE-GW (libvips' practice: the schedule in Sources is
// checked against the algorithm written the simplest way). This is the stripe as it was before
// it was vectorized (pipeline versions 2 and 3 were pinned with it); LMMSEGWScheduleTests
// requires the vectorized stripe to match it bit for bit.
@testable import DaguerreRAW

enum LMMSEGWScalarReference {
    /// Demosaics output `rows` × `columns` (image coordinates); `write(y, x0, count, r, g, b)`
    /// receives a row segment of sRGB-encoded R, G and B planes (sampled values kept exactly).
    /// Rows go in and out whole, so the caller's per-sample work runs in tight loops.
    static func stripe(
        rows: Range<Int>, columns: Range<Int>, pattern: BayerPatternColors,
        fill: (_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) -> Void,
        write: (_ y: Int, _ x0: Int, _ count: Int, _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>) -> Void
    ) {
        let h = LMMSEGWDemosaic.halo
        let nr = rows.count + 2 * h
        let nc = columns.count + 2 * h
        let n = nc
        // Fourteen whole planes of the padded stripe, as the stripe had before its rows rolled.
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: 14 * nr * n)
        storage.initialize(repeating: 0, count: 14 * nr * n)
        defer { storage.deallocate() }
        func plane(_ k: Int) -> UnsafeMutablePointer<Float> { storage + k * nr * n }
        let y = plane(0)
        let dh = plane(1)
        let dv = plane(2)
        let eh = plane(3)
        let ev = plane(4)
        let t1 = plane(5)
        let t2 = plane(6)
        let wN = plane(7)
        let wS = plane(8)
        let wW = plane(9)
        let wE = plane(10)
        let green = plane(11)
        let cr = plane(12)
        let cb = plane(13)
        let row0 = rows.lowerBound - h
        let col0 = columns.lowerBound - h
        @inline(__always) func colour(_ r: Int, _ c: Int) -> Int { pattern.color(x: col0 + c, y: row0 + r) }

        // 0. The encoded mosaic with its halo.
        for r in 0..<nr { fill(row0 + r, col0, nc, y + r * n) }
        // 1. Hamilton–Adams: d estimates G − X along each direction.
        for r in 2..<(nr - 2) {
            for c in 2..<(nc - 2) {
                let i = r * n + c
                let v = y[i]
                let fh = 0.5 * (y[i - 1] + y[i + 1] + v) - 0.25 * (y[i - 2] + y[i + 2])
                let fv = 0.5 * (y[i - n] + y[i + n] + v) - 0.25 * (y[i - 2 * n] + y[i + 2 * n])
                if colour(r, c) == 1 {
                    dh[i] = v - fh
                    dv[i] = v - fv
                } else {
                    dh[i] = fh - v
                    dv[i] = fv - v
                }
            }
        }
        // 2. 1-D LMMSE of each difference along its own direction.
        let gauss = LMMSEGWDemosaic.gauss
        let epsilon = LMMSEGWDemosaic.epsilon
        let g0 = gauss[0]
        let g1 = gauss[1]
        let g2 = gauss[2]
        let g3 = gauss[3]
        let g4 = gauss[4]
        for (d, e, st) in [(dh, eh, 1), (dv, ev, n)] {
            for r in 6..<(nr - 6) {
                for c in 6..<(nc - 6) {
                    let i = r * n + c
                    var s = g0 * d[i]
                    s += g1 * (d[i - st] + d[i + st]) + g2 * (d[i - 2 * st] + d[i + 2 * st])
                    s += g3 * (d[i - 3 * st] + d[i + 3 * st]) + g4 * (d[i - 4 * st] + d[i + 4 * st])
                    t1[i] = s
                    let q = d[i] - s
                    t2[i] = q * q
                }
            }
            for r in 10..<(nr - 10) {
                for c in 10..<(nc - 10) {
                    let i = r * n + c
                    var m: Float = 0
                    var s2: Float = 0
                    var e2: Float = 0
                    for k in -4...4 {
                        let v = t1[i + k * st]
                        m += v
                        s2 += v * v
                        e2 += t2[i + k * st]
                    }
                    m /= 9
                    s2 /= 9
                    e2 /= 9
                    let sx = max(s2 - m * m, 0) + epsilon
                    let sv = e2 + epsilon
                    e[i] = m + sx / (sx + sv) * (d[i] - m)
                }
            }
        }
        // 3. Gradient weights from the raw differences: 5×5 sums of |d(−1) − d(+1)|.
        for r in 5..<(nr - 5) {
            for c in 5..<(nc - 5) {
                let i = r * n + c
                var a: Float = 0
                var b: Float = 0
                for k in -2...2 {
                    let j = i + k * n
                    a += abs(dh[j - 1] - dh[j + 1])
                    let j2 = i + k
                    b += abs(dv[j2 - n] - dv[j2 + n])
                }
                t1[i] = a
                t2[i] = b
            }
        }
        for r in 7..<(nr - 7) {
            for c in 7..<(nc - 7) {
                let i = r * n + c
                wW[i] = t1[i - 2] + t1[i - 1] + t1[i] + t1[i + 1] + t1[i + 2]  // BH
                wN[i] = t2[i - 2 * n] + t2[i - n] + t2[i] + t2[i + n] + t2[i + 2 * n]  // BV
            }
        }
        for r in 9..<(nr - 9) {
            for c in 9..<(nc - 9) {
                let i = r * n + c
                let bw = wW[i - 2]
                let be = wW[i + 2]
                let bn = wN[i - 2 * n]
                let bs = wN[i + 2 * n]
                t1[i] = 1 / (bw * bw + epsilon)
                t2[i] = 1 / (be * be + epsilon)
                wS[i] = 1 / (bs * bs + epsilon)
                wE[i] = 1 / (bn * bn + epsilon)  // wE holds the north weight for now
            }
        }
        for r in 9..<(nr - 9) {
            for c in 9..<(nc - 9) {
                let i = r * n + c
                wW[i] = t1[i]
                wN[i] = wE[i]
                wE[i] = t2[i]
            }
        }
        // 4. Green at red and blue sites: the weighted fusion of the one-sided denoised differences.
        let (f0, f1, f2, f3) = LMMSEGWDemosaic.f
        for r in 13..<(nr - 13) {
            for c in 13..<(nc - 13) {
                let i = r * n + c
                if colour(r, c) == 1 {
                    green[i] = y[i]
                    continue
                }
                let ew = f0 * eh[i] + f1 * eh[i - 1] + f2 * eh[i - 2] + f3 * eh[i - 3]
                let ee = f0 * eh[i] + f1 * eh[i + 1] + f2 * eh[i + 2] + f3 * eh[i + 3]
                let en = f0 * ev[i] + f1 * ev[i - n] + f2 * ev[i - 2 * n] + f3 * ev[i - 3 * n]
                let es = f0 * ev[i] + f1 * ev[i + n] + f2 * ev[i + 2 * n] + f3 * ev[i + 3 * n]
                green[i] = y[i] + (wN[i] * en + wS[i] * es + wW[i] * ew + wE[i] * ee) / (wN[i] + wS[i] + wW[i] + wE[i])
            }
        }
        // 5. Colour differences G − R and G − B: own sites, then the opposite sites by the 7×7 kernel.
        for r in 13..<(nr - 13) {
            for c in 13..<(nc - 13) {
                let i = r * n + c
                let k = colour(r, c)
                cr[i] = k == 0 ? green[i] - y[i] : 0
                cb[i] = k == 2 ? green[i] - y[i] : 0
            }
        }
        for r in 16..<(nr - 16) {
            for c in 16..<(nc - 16) {
                let i = r * n + c
                let k = colour(r, c)
                if k == 1 { continue }
                let p = k == 2 ? cr : cb
                let near = p[i - n - 1] + p[i - n + 1] + p[i + n - 1] + p[i + n + 1]
                var far = p[i - 3 * n - 1] + p[i - 3 * n + 1] + p[i - n - 3] + p[i - n + 3]
                far += p[i + n - 3] + p[i + n + 3] + p[i + 3 * n - 1] + p[i + 3 * n + 1]
                p[i] = (10 * near - far) / 32
            }
        }
        // 6. Green sites from their four neighbours, then R and B, a row at a time into the
        // planes steps 3 and 5 no longer need (t1, t2, dh: R, G, B).
        let outR = t1
        let outG = t2
        let outB = dh
        for r in h..<(nr - h) {
            for c in h..<(nc - h) {
                let i = r * n + c
                let k = colour(r, c)
                var dr = cr[i]
                var db = cb[i]
                if k == 1 {
                    let inv = 1 / (wN[i] + wS[i] + wW[i] + wE[i])
                    dr = (wN[i] * cr[i - n] + wS[i] * cr[i + n] + wW[i] * cr[i - 1] + wE[i] * cr[i + 1]) * inv
                    db = (wN[i] * cb[i - n] + wS[i] * cb[i + n] + wW[i] * cb[i - 1] + wE[i] * cb[i + 1]) * inv
                }
                let g = green[i]
                let o = c - h
                outR[o] = k == 0 ? y[i] : g - dr
                outG[o] = g
                outB[o] = k == 2 ? y[i] : g - db
            }
            write(row0 + r, col0 + h, nc - 2 * h, outR, outG, outB)
        }
    }
}
