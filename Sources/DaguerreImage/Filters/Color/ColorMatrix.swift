import DaguerreCore

/// A 4×4 colour matrix plus bias (CIColorMatrix): `r' = dot(rgba, R) + bias.r`, and so on,
/// applied to unpremultiplied colour.
///
/// ```swift
/// let swapped = try image.applying(ColorMatrix(r: [0, 0, 1, 0], b: [1, 0, 0, 0]))
/// ```
public struct ColorMatrix: Filter {
    public var inputImage: Image?
    public var r: [Double] = [1, 0, 0, 0]
    public var g: [Double] = [0, 1, 0, 0]
    public var b: [Double] = [0, 0, 1, 0]
    public var a: [Double] = [0, 0, 0, 1]
    public var bias: [Double] = [0, 0, 0, 0]

    public init() {}
    public init(
        inputImage: Image? = nil, r: [Double] = Self.defaults.r, g: [Double] = Self.defaults.g, b: [Double] = Self.defaults.b,
        a: [Double] = Self.defaults.a, bias: [Double] = Self.defaults.bias
    ) {
        self.inputImage = inputImage
        self.r = r
        self.g = g
        self.b = b
        self.a = a
        self.bias = bias
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorMatrix", displayName: "Color Matrix", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Multiplies unpremultiplied RGBA by a 4×4 matrix and adds a bias.",
        parameters: [
            .image(\.inputImage),
            .vector(\.r, "inputRVector", "Weights of R, G, B, A in the output red.", count: 4),
            .vector(\.g, "inputGVector", "Weights in the output green.", count: 4),
            .vector(\.b, "inputBVector", "Weights in the output blue.", count: 4),
            .vector(\.a, "inputAVector", "Weights in the output alpha.", count: 4),
            .vector(\.bias, "inputBiasVector", "Added to each output component.", count: 4),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let rows = [r, g, b, a, bias]
        func f(_ v: [Double]) -> SIMD4<Float> { SIMD4(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3])) }
        let R = f(r)
        let G = f(g)
        let B = f(b)
        let A = f(a)
        let bias = f(self.bias)
        // Columns, for three FMAs per pixel.
        let c0 = SIMD4(R.x, G.x, B.x, A.x)
        let c1 = SIMD4(R.y, G.y, B.y, A.y)
        let c2 = SIMD4(R.z, G.z, B.z, A.z)
        let c3 = SIMD4(R.w, G.w, B.w, A.w)
        let opaqueSafe = A == SIMD4(0, 0, 0, 1) && bias.w == 0
        // With no bias and alpha passed through, unpremultiply·M·premultiply is M itself: linear.
        let isLinear = A == SIMD4(0, 0, 0, 1) && bias == .zero && R.w == 0 && G.w == 0 && B.w == 0
        let linear = isLinear ? Matrix3([R.x, R.y, R.z, G.x, G.y, G.z, B.x, B.y, B.z].map(Double.init)) : nil
        return Image(
            PointwiseNode(
                name: "colorMatrix", inputs: [input.node], extent: input.extent,
                parameters: "R\(R) G\(G) B\(B) A\(A) bias\(bias)", linear: linear,
                digest: { d in for v in rows { d.add(v) } }
            ) { span in
                let p = span.pixels
                let c0 = c0
                let c1 = c1
                let c2 = c2
                let c3 = c3
                let bias = bias
                let opaqueSafe = opaqueSafe
                for i in 0..<span.count {
                    var v = p[i]
                    let straight = v.w != 1
                    if straight { v = SpanMath.unpremultiply(v) }
                    var o = bias
                    o.addProduct(c0, SIMD4(repeating: v.x))
                    o.addProduct(c1, SIMD4(repeating: v.y))
                    o.addProduct(c2, SIMD4(repeating: v.z))
                    o.addProduct(c3, SIMD4(repeating: v.w))
                    if opaqueSafe && !straight { o.w = 1 }
                    p[i] = straight || o.w != 1 ? SpanMath.premultiply(o) : o
                }
            })
    }
}
