import DaguerreCore
import Foundation
import Synchronization

/// Separable resampling under a scale-and-translate transform: LanczosScaleTransform,
/// BicubicScaleTransform and every axis-aligned `transformed(by:)`.
///
/// Per tile: pull the input rows the tile needs through the fused graph, resample each
/// horizontally into a float intermediate of (tile width × input rows), then resample
/// vertically per output row. Shrinking widens the kernel by the scale factor (antialiasing),
/// with Pillow's tap bounds.
final class ResampleNode: ImageNode, @unchecked Sendable {
    let sx: Double, sy: Double, tx: Double, ty: Double
    let kernel: ResampleKernel
    let name: String
    /// Taps depend only on where a tile starts and how wide it is, so tiles in the same column
    /// (or band) share them: computing them costs `sin` calls per tap.
    private let tapsCache = Mutex<[SIMD3<Int>: ResampleTaps]>([:])

    convenience init(input: ImageNode, sx: Double, sy: Double, tx: Double, ty: Double, kernel: Interpolation, name: String) {
        self.init(input: input, sx: sx, sy: sy, tx: tx, ty: ty, kernel: .named(kernel), name: name)
    }

    init(input: ImageNode, sx: Double, sy: Double, tx: Double, ty: Double, kernel: ResampleKernel, name: String) {
        self.sx = sx
        self.sy = sy
        self.tx = tx
        self.ty = ty
        self.kernel = kernel
        self.name = name
        let t = AffineTransform2D(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty)
        super.init(extent: t.apply(to: input.extent), inputs: [input], kind: "resample") { d in
            d.add(sx)
            d.add(sy)
            d.add(tx)
            d.add(ty)
            d.add(kernel.label)
        }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { name }
    override var details: String { "scale (\(fmt(sx)), \(fmt(sy))) offset (\(fmt(tx)), \(fmt(ty))) \(kernel.label)" }
    private func fmt(_ v: Double) -> String { String(format: "%.4g", v) }

    private func range(_ lo: Int, _ n: Int, scale: Double, offset: Double) -> Range<Int> {
        let support = ResampleTaps.support(kernel, scale: scale)
        let u0 = ResampleTaps.center(lo, scale: scale, offset: offset)
        let u1 = ResampleTaps.center(lo + n - 1, scale: scale, offset: offset)
        let a = ResampleTaps.bounds(u: min(u0, u1), support: support).lo
        let b = ResampleTaps.bounds(u: max(u0, u1), support: support).hi
        return a..<max(a + 1, b)
    }

    private func taps(axis: Int, out0: Int, n: Int) -> ResampleTaps {
        let key = SIMD3(axis, out0, n)
        if let t = tapsCache.withLock({ $0[key] }) { return t }
        let t =
            axis == 0
            ? ResampleTaps(kernel: kernel, scale: sx, offset: tx, out0: out0, n: n)
            : ResampleTaps(kernel: kernel, scale: sy, offset: ty, out0: out0, n: n)
        tapsCache.withLock {
            if $0.count > 4096 { $0.removeAll() }
            $0[key] = t
        }
        return t
    }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        guard !rect.isEmpty else { return .zero }
        let xr = range(rect.x, rect.width, scale: sx, offset: tx)
        let yr = range(rect.y, rect.height, scale: sy, offset: ty)
        return IntRect(x: xr.lowerBound, y: yr.lowerBound, width: xr.count, height: yr.count)
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let xt = taps(axis: 0, out0: rect.x, n: rect.width)
        let yt = taps(axis: 1, out0: rect.y, n: rect.height)
        let xr = xt.inputRange
        let yr = yt.inputRange
        let inRect = IntRect(x: xr.lowerBound, y: yr.lowerBound, width: xr.count, height: yr.count)
        let input = try context.producer(of: inputs[0], rect: inRect)
        let h = context.arena.allocate(SIMD4<Float>.self, count: rect.width * inRect.height)
        context.env.stats.noteIntermediate(
            self, format: .rgbaf, rect: IntRect(x: rect.x, y: inRect.y, width: rect.width, height: inRect.height))
        // Padding past the row: a pair reads as many taps as its longer member; the extra taps
        // have zero weight but must read finite memory.
        let src = context.rowBuffer(inRect.width + xt.maxTaps + 1)
        (src + inRect.width).update(repeating: .zero, count: xt.maxTaps + 1)
        xt.pairWeights.withUnsafeBufferPointer { pw in
            xt.start.withUnsafeBufferPointer { st in
                xt.pairCount.withUnsafeBufferPointer { pc in
                    let m = xt.maxTaps
                    let n = rect.width
                    let x0 = inRect.x
                    let pairs = (n + 1) / 2
                    for r in 0..<inRect.height {
                        input.row(inRect.y + r, into: src)
                        let dst = h + r * n
                        // Two pairs at a time: two independent chains of multiply-adds instead of
                        // one, each in the same order as alone (the same bits).
                        var p = 0
                        while p + 1 < pairs {
                            let a = 2 * p
                            let b = a + 1
                            let c = a + 2
                            let d = min(a + 3, n - 1)
                            let sa = src + (st[a] - x0)
                            let sb = src + (st[b] - x0)
                            let sc = src + (st[c] - x0)
                            let sd = src + (st[d] - x0)
                            let w = pw.baseAddress! + p * m
                            let v = w + m
                            let first = pc[p]
                            let second = pc[p + 1]
                            let both = min(first, second)
                            var acc = SIMD8<Float>()
                            var acc2 = SIMD8<Float>()
                            for k in 0..<both {
                                acc.addProduct(SIMD8(lowHalf: sa[k], highHalf: sb[k]), w[k])
                                acc2.addProduct(SIMD8(lowHalf: sc[k], highHalf: sd[k]), v[k])
                            }
                            for k in both..<first { acc.addProduct(SIMD8(lowHalf: sa[k], highHalf: sb[k]), w[k]) }
                            for k in both..<second { acc2.addProduct(SIMD8(lowHalf: sc[k], highHalf: sd[k]), v[k]) }
                            dst[a] = acc.lowHalf
                            dst[b] = acc.highHalf
                            dst[c] = acc2.lowHalf
                            if d != c { dst[d] = acc2.highHalf }
                            p += 2
                        }
                        if p < pairs {
                            let a = 2 * p
                            let b = min(a + 1, n - 1)
                            let sa = src + (st[a] - x0)
                            let sb = src + (st[b] - x0)
                            let w = pw.baseAddress! + p * m
                            var acc = SIMD8<Float>()
                            for k in 0..<pc[p] { acc.addProduct(SIMD8(lowHalf: sa[k], highHalf: sb[k]), w[k]) }
                            dst[a] = acc.lowHalf
                            if b != a { dst[b] = acc.highHalf }
                        }
                    }
                }
            }
        }
        return ResampleRowProducer(rect: rect, h: h, taps: yt, inY: inRect.y)
    }
}

final class ResampleRowProducer: RowProducer {
    let rect: IntRect
    let h: UnsafeMutablePointer<SIMD4<Float>>
    let taps: ResampleTaps
    let inY: Int
    init(rect: IntRect, h: UnsafeMutablePointer<SIMD4<Float>>, taps: ResampleTaps, inY: Int) {
        self.rect = rect
        self.h = h
        self.taps = taps
        self.inY = inY
    }
    /// Σ weight·row over the taps of output row `y`, accumulated in registers, eight pixels per
    /// step (four independent chains of multiply-adds), then four, then one.
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let i = y - rect.y
        let n = rect.width
        let first = taps.start[i] - inY
        let count = taps.count[i]
        let base = i * taps.maxTaps
        let src = UnsafeRawPointer(h + first * n)
        let d = UnsafeMutableRawPointer(out)
        let rowBytes = n * 16
        taps.weights.withUnsafeBufferPointer { wt in
            let w = wt.baseAddress! + base
            var x = 0
            while x + 8 <= n {
                let o = x * 16
                var a0 = SIMD8<Float>()
                var a1 = SIMD8<Float>()
                var a2 = SIMD8<Float>()
                var a3 = SIMD8<Float>()
                for k in 0..<count {
                    let wk = SIMD8<Float>(repeating: w[k])
                    let ok = o + k * rowBytes
                    a0.addProduct(src.loadUnaligned(fromByteOffset: ok, as: SIMD8<Float>.self), wk)
                    a1.addProduct(src.loadUnaligned(fromByteOffset: ok + 32, as: SIMD8<Float>.self), wk)
                    a2.addProduct(src.loadUnaligned(fromByteOffset: ok + 64, as: SIMD8<Float>.self), wk)
                    a3.addProduct(src.loadUnaligned(fromByteOffset: ok + 96, as: SIMD8<Float>.self), wk)
                }
                d.storeBytes(of: a0, toByteOffset: o, as: SIMD8<Float>.self)
                d.storeBytes(of: a1, toByteOffset: o + 32, as: SIMD8<Float>.self)
                d.storeBytes(of: a2, toByteOffset: o + 64, as: SIMD8<Float>.self)
                d.storeBytes(of: a3, toByteOffset: o + 96, as: SIMD8<Float>.self)
                x += 8
            }
            while x + 4 <= n {
                let o = x * 16
                var a0 = SIMD8<Float>()
                var a1 = SIMD8<Float>()
                for k in 0..<count {
                    let wk = SIMD8<Float>(repeating: w[k])
                    let ok = o + k * rowBytes
                    a0.addProduct(src.loadUnaligned(fromByteOffset: ok, as: SIMD8<Float>.self), wk)
                    a1.addProduct(src.loadUnaligned(fromByteOffset: ok + 32, as: SIMD8<Float>.self), wk)
                }
                d.storeBytes(of: a0, toByteOffset: o, as: SIMD8<Float>.self)
                d.storeBytes(of: a1, toByteOffset: o + 32, as: SIMD8<Float>.self)
                x += 4
            }
            let s4 = h + first * n
            while x < n {
                var acc = SIMD4<Float>()
                for k in 0..<count { acc.addProduct(s4[x + k * n], SIMD4(repeating: w[k])) }
                out[x] = acc
                x += 1
            }
        }
    }
}
