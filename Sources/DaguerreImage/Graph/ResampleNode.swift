import DaguerreCore
import Foundation
import Synchronization

/// Separable resampling under a scale-and-translate transform: LanczosScaleTransform and every
/// axis-aligned `transformed(by:)`.
///
/// Per tile: pull the input rows the tile needs through the fused graph, resample each
/// horizontally into a float intermediate of (tile width × input rows), then resample
/// vertically per output row. Shrinking widens the kernel by the scale factor (antialiasing),
/// with Pillow's tap bounds.
final class ResampleNode: ImageNode, @unchecked Sendable {
    let sx: Double, sy: Double, tx: Double, ty: Double
    let kernel: Interpolation
    let name: String
    /// Taps depend only on where a tile starts and how wide it is, so tiles in the same column
    /// (or band) share them: computing them costs `sin` calls per tap.
    private let tapsCache = Mutex<[SIMD3<Int>: ResampleTaps]>([:])

    init(input: ImageNode, sx: Double, sy: Double, tx: Double, ty: Double, kernel: Interpolation, name: String) {
        self.sx = sx; self.sy = sy; self.tx = tx; self.ty = ty; self.kernel = kernel; self.name = name
        let t = AffineTransform2D(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty)
        super.init(extent: t.apply(to: input.extent), inputs: [input], kind: "resample") { d in
            d.add(sx); d.add(sy); d.add(tx); d.add(ty); d.add(kernel.rawValue)
        }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { name }
    override var details: String { "scale (\(fmt(sx)), \(fmt(sy))) offset (\(fmt(tx)), \(fmt(ty))) \(kernel.rawValue)" }
    private func fmt(_ v: Double) -> String { String(format: "%.4g", v) }

    private func range(_ lo: Int, _ n: Int, scale: Double, offset: Double) -> Range<Int> {
        let support = kernel.radius * max(1, 1 / scale)
        let u0 = (Double(lo) + 0.5 - offset) / scale, u1 = (Double(lo + n - 1) + 0.5 - offset) / scale
        let a = Int(floor(min(u0, u1) - support + 0.5)), b = Int(floor(max(u0, u1) + support + 0.5))
        return a..<max(a + 1, b)
    }

    private func taps(axis: Int, out0: Int, n: Int) -> ResampleTaps {
        let key = SIMD3(axis, out0, n)
        if let t = tapsCache.withLock({ $0[key] }) { return t }
        let t = axis == 0 ? ResampleTaps(kernel: kernel, scale: sx, offset: tx, out0: out0, n: n)
                          : ResampleTaps(kernel: kernel, scale: sy, offset: ty, out0: out0, n: n)
        tapsCache.withLock { if $0.count > 4096 { $0.removeAll() }; $0[key] = t }
        return t
    }

    override func roi(for rect: IntRect, input index: Int) -> IntRect {
        guard !rect.isEmpty else { return .zero }
        let xr = range(rect.x, rect.width, scale: sx, offset: tx), yr = range(rect.y, rect.height, scale: sy, offset: ty)
        return IntRect(x: xr.lowerBound, y: yr.lowerBound, width: xr.count, height: yr.count)
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let xt = taps(axis: 0, out0: rect.x, n: rect.width)
        let yt = taps(axis: 1, out0: rect.y, n: rect.height)
        let xr = xt.inputRange, yr = yt.inputRange
        let inRect = IntRect(x: xr.lowerBound, y: yr.lowerBound, width: xr.count, height: yr.count)
        let input = try context.producer(of: inputs[0], rect: inRect)
        let h = context.arena.allocate(SIMD4<Float>.self, count: rect.width * inRect.height)
        context.env.stats.noteIntermediate(self, format: .rgbaf, rect: IntRect(x: rect.x, y: inRect.y, width: rect.width, height: inRect.height))
        let src = context.rowBuffer(inRect.width)
        xt.weights.withUnsafeBufferPointer { w in
            xt.start.withUnsafeBufferPointer { st in
                xt.count.withUnsafeBufferPointer { ct in
                    for r in 0..<inRect.height {
                        input.row(inRect.y + r, into: src)
                        let dst = h + r * rect.width
                        let m = xt.maxTaps
                        for i in 0..<rect.width {
                            let s = src + (st[i] - inRect.x)
                            let wi = w.baseAddress! + i * m
                            var acc = SIMD4<Float>()
                            for k in 0..<ct[i] { acc.addProduct(s[k], SIMD4(repeating: wi[k])) }
                            dst[i] = acc
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
        self.rect = rect; self.h = h; self.taps = taps; self.inY = inY
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let i = y - rect.y, n = rect.width
        let first = taps.start[i] - inY, count = taps.count[i], base = i * taps.maxTaps
        out.update(repeating: .zero, count: n)
        for k in 0..<count {
            let w = SIMD4<Float>(repeating: taps.weights[base + k])
            let src = h + (first + k) * n
            for x in 0..<n { out[x].addProduct(src[x], w) }
        }
    }
}
