import DaguerreCore

/// Reads an input image inside a general or warp kernel: bilinear `sample(_:)` at any point,
/// `read(x:y:)` at whole pixels. Coordinates are image coordinates with pixel centres at
/// half-integers (`destCoord` of the pixel at column 3 is x = 3.5). Outside the input's extent
/// it returns transparent black. An input marked by ``Image/samplingNearest()`` is read at the
/// pixel under the point whatever the interpolation asked for.
///
/// ```swift
/// let k = GeneralKernel(name: "shift") { ctx in ctx.sampler(0).sample(ctx.destCoord + SIMD2(4, 0)) }
/// ```
public struct Sampler {
    let view: TileView
    let valid: IntRect
    let nearest: Bool

    init(view: TileView, extent: IntRect, nearest: Bool = false) {
        self.view = view
        self.valid = extent.intersection(view.rect)
        self.nearest = nearest
    }

    /// The input's extent (its domain of definition).
    public var extent: Rect { Rect(valid) }

    /// The pixel whose top-left corner is (x, y); 0 outside the extent.
    @inline(__always) public func read(x: Int, y: Int) -> SIMD4<Float> {
        guard x >= valid.x, x < valid.maxX, y >= valid.y, y < valid.maxY else { return .zero }
        return view.pixel(x: x, y: y)
    }

    /// Bilinear interpolation at `p` (the pixel under `p` for an input sampled nearest).
    @inline(__always) public func sample(_ p: SIMD2<Float>) -> SIMD4<Float> {
        if nearest { return readUnder(p) }
        let fx = p.x - 0.5
        let fy = p.y - 0.5
        let x0f = fx.rounded(.down)
        let y0f = fy.rounded(.down)
        guard x0f.isFinite, y0f.isFinite, abs(x0f) < 1e9, abs(y0f) < 1e9 else { return .zero }
        let x0 = Int(x0f)
        let y0 = Int(y0f)
        let ax = fx - x0f
        let ay = fy - y0f
        let a = read(x: x0, y: y0)
        let b = read(x: x0 + 1, y: y0)
        let c = read(x: x0, y: y0 + 1)
        let d = read(x: x0 + 1, y: y0 + 1)
        let top = a + (b - a) * ax
        let bottom = c + (d - c) * ax
        return top + (bottom - top) * ay
    }

    /// The pixel that contains `p`.
    @inline(__always) func readUnder(_ p: SIMD2<Float>) -> SIMD4<Float> {
        let x = p.x.rounded(.down)
        let y = p.y.rounded(.down)
        guard abs(x) < 1e9, abs(y) < 1e9 else { return .zero }
        return read(x: Int(x), y: Int(y))
    }

    /// Interpolation with any kernel (bicubic, Lanczos) at `p`, without antialiasing.
    func sample(_ p: SIMD2<Float>, kernel: Interpolation) -> SIMD4<Float> {
        if kernel == .bilinear { return sample(p) }
        if kernel == .nearest || nearest { return readUnder(p) }
        let r = Int(kernel.radius)
        let fx = Double(p.x) - 0.5
        let fy = Double(p.y) - 0.5
        guard abs(fx) < 1e9, abs(fy) < 1e9 else { return .zero }
        let cx = Int(fx.rounded(.down))
        let cy = Int(fy.rounded(.down))
        var acc = SIMD4<Float>()
        var wsum: Float = 0
        for j in (cy - r + 1)...(cy + r) {
            let wy = kernel.weight(Double(j) - fy)
            for i in (cx - r + 1)...(cx + r) {
                let w = Float(wy * kernel.weight(Double(i) - fx))
                acc.addProduct(read(x: i, y: j), SIMD4(repeating: w))
                wsum += w
            }
        }
        return wsum != 0 ? acc / wsum : acc
    }
}
