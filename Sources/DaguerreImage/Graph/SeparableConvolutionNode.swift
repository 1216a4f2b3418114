import DaguerreCore
import Foundation

/// A separable, symmetric convolution (Gaussian, box, the blur inside unsharp mask): the
/// region node behind the blur filters.
///
/// Per tile it pulls the input's rows for the tile plus its margin through the fused graph,
/// filters them horizontally into a float intermediate the size of the tile (never the image),
/// and filters that vertically as output rows are asked for (I3: spatial kernels recompute
/// their margin per tile). Samples outside the input's extent are transparent, as in Core
/// Image; clamp the input first (`clampedToExtent()`) to replicate edges instead.
final class SeparableConvolutionNode: ImageNode, @unchecked Sendable {
    let name: String
    let parameters: String
    /// Half kernels: `weights[0]` is the centre, `weights[k]` applies at ±k.
    let wx: [Float], wy: [Float]

    init(input: ImageNode, name: String, parameters: String, horizontal: [Float], vertical: [Float]) {
        self.name = name
        self.parameters = parameters
        wx = horizontal
        wy = vertical
        let rx = Double(horizontal.count - 1)
        let ry = Double(vertical.count - 1)
        super.init(extent: input.extent.insetBy(dx: -rx, dy: -ry), inputs: [input], kind: "conv:" + name) { d in
            d.add(horizontal.map(Double.init))
            d.add(vertical.map(Double.init))
        }
    }

    override var evaluation: Evaluation { .region }
    override var label: String { name }
    override var details: String { parameters }
    var rx: Int { wx.count - 1 }
    var ry: Int { wy.count - 1 }

    override func roi(for rect: IntRect, input index: Int) -> IntRect { rect.insetBy(dx: -rx, dy: -ry) }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let inRect = roi(for: rect, input: 0)
        let input = try context.producer(of: inputs[0], rect: inRect)
        let h = context.arena.allocate(SIMD4<Float>.self, count: rect.width * inRect.height)
        context.env.stats.noteIntermediate(
            self, format: .rgbaf, rect: IntRect(x: rect.x, y: inRect.y, width: rect.width, height: inRect.height))
        let src = context.rowBuffer(inRect.width)
        // Horizontal pass over every input row the tile needs.
        wx.withUnsafeBufferPointer { w in
            for r in 0..<inRect.height {
                input.row(inRect.y + r, into: src)
                SeparableConvolutionNode.symmetric(
                    src + rx, into: h + r * rect.width, count: rect.width, tap: 1, w: w.baseAddress!, radius: rx)
            }
        }
        return ConvolutionRowProducer(rect: rect, h: h, wy: wy, inY: inRect.y)
    }

    /// dst[x] = w0·c[x] + Σ wk·(c[x − k·tap] + c[x + k·tap]) for `count` pixels: the one loop of
    /// both passes (horizontal: `tap` is one pixel; vertical: one row of the intermediate). Eight
    /// pixels per step in two registers of four RGBA pixels (one AVX-512 register each, two AVX
    /// ones where the CPU has no AVX-512), accumulated in registers: one store per pixel.
    static func symmetric(
        _ c: UnsafePointer<SIMD4<Float>>, into dst: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
        tap: Int, w: UnsafePointer<Float>, radius: Int
    ) {
        let s = UnsafeRawPointer(c)
        let d = UnsafeMutableRawPointer(dst)
        let tapBytes = tap * 16
        let w0 = SIMD16<Float>(repeating: w[0])
        var x = 0
        // Wrapping arithmetic on the offsets: they stay far inside the buffers, and checked
        // arithmetic cost a test and a branch per tap.
        while x &+ 8 <= count {
            let o = x &* 16
            var a0 = s.loadUnaligned(fromByteOffset: o, as: SIMD16<Float>.self) * w0
            var a1 = s.loadUnaligned(fromByteOffset: o + 64, as: SIMD16<Float>.self) * w0
            var k = 1
            while k <= radius {
                let wk = SIMD16<Float>(repeating: w[k])
                let ok = k &* tapBytes
                a0.addProduct(
                    s.loadUnaligned(fromByteOffset: o &- ok, as: SIMD16<Float>.self)
                        + s.loadUnaligned(fromByteOffset: o &+ ok, as: SIMD16<Float>.self), wk)
                a1.addProduct(
                    s.loadUnaligned(fromByteOffset: o &+ 64 &- ok, as: SIMD16<Float>.self)
                        + s.loadUnaligned(fromByteOffset: o &+ 64 &+ ok, as: SIMD16<Float>.self), wk)
                k &+= 1
            }
            d.storeBytes(of: a0, toByteOffset: o, as: SIMD16<Float>.self)
            d.storeBytes(of: a1, toByteOffset: o &+ 64, as: SIMD16<Float>.self)
            x &+= 8
        }
        while x < count {
            var acc = c[x] * w[0]
            for k in stride(from: 1, through: radius, by: 1) { acc.addProduct(c[x - k * tap] + c[x + k * tap], SIMD4(repeating: w[k])) }
            dst[x] = acc
            x += 1
        }
    }
}

final class ConvolutionRowProducer: RowProducer {
    let rect: IntRect
    let h: UnsafeMutablePointer<SIMD4<Float>>
    let wy: [Float]
    let inY: Int
    init(rect: IntRect, h: UnsafeMutablePointer<SIMD4<Float>>, wy: [Float], inY: Int) {
        self.rect = rect
        self.h = h
        self.wy = wy
        self.inY = inY
    }
    /// The vertical pass for row `y`, down the intermediate's columns.
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let n = rect.width
        wy.withUnsafeBufferPointer { w in
            // Centre row: inY is the tile top minus the radius.
            SeparableConvolutionNode.symmetric(h + (y - inY) * n, into: out, count: n, tap: n, w: w.baseAddress!, radius: wy.count - 1)
        }
    }
}

extension SeparableConvolutionNode {
    /// Normalised half Gaussian for standard deviation `sigma`, radius ⌈3σ⌉ (OpenCV's size for
    /// 8-bit images, `round(6σ + 1) | 1` taps).
    static func gaussianWeights(sigma: Double) -> [Float] {
        guard sigma > 0 else { return [1] }
        let taps = Int((sigma * 6 + 1).rounded()) | 1
        let r = taps / 2
        var w = (0...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = w[0] + 2 * w.dropFirst().reduce(0, +)
        w = w.map { $0 / sum }
        return preservingOne(w.map { Float($0) })
    }
    /// A normalised box of `2r + 1` taps.
    static func boxWeights(radius r: Int) -> [Float] {
        preservingOne([Float](repeating: 1 / Float(2 * r + 1), count: r + 1))
    }

    /// `w` with its centre weight moved by the fewest ulps that make ``symmetric`` give exactly 1
    /// for a constant 1: rounded to floats, normalised weights sum to 1 ± an ulp, and an opaque
    /// image blurred came out with alphas of 0.99999994, which every later stage then treated as
    /// translucent (an unpremultiply per pixel on output). Changes no weight by more than a few
    /// ulps; unchanged when no nearby centre weight does it.
    static func preservingOne(_ w: [Float]) -> [Float] {
        guard w.count > 1 else { return w }
        // The loop's own order: the centre times the sample, then one FMA per pair of taps.
        func sum(_ w0: Float) -> Float {
            var acc = 1 * w0
            for k in 1..<w.count { acc.addProduct(1 + 1, w[k]) }
            return acc
        }
        var out = w
        var below = w[0]
        var above = w[0]
        for _ in 0...8 {
            if sum(below) == 1 {
                out[0] = below
                return out
            }
            if sum(above) == 1 {
                out[0] = above
                return out
            }
            below = below.nextDown
            above = above.nextUp
        }
        return w
    }
}
