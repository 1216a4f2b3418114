import DaguerreCore

/// A 4×4 colour matrix plus bias (CIColorMatrix): `r' = dot(rgba, R) + bias.r`, and so on,
/// applied to unpremultiplied colour.
///
/// ```swift
/// let swapped = try image.applying(ColorMatrix(r: [0, 0, 1, 0], b: [1, 0, 0, 0]))
/// ```
public struct ColorMatrix: Filter {
    public var inputImage: Image?
    public var r: [Double], g: [Double], b: [Double], a: [Double], bias: [Double]
    public init(inputImage: Image? = nil, r: [Double] = [1, 0, 0, 0], g: [Double] = [0, 1, 0, 0], b: [Double] = [0, 0, 1, 0],
                a: [Double] = [0, 0, 0, 1], bias: [Double] = [0, 0, 0, 0]) {
        self.inputImage = inputImage; self.r = r; self.g = g; self.b = b; self.a = a; self.bias = bias
    }
    public var values: [String: FilterValue] { filterValues(["inputRVector": .vector(r), "inputGVector": .vector(g), "inputBVector": .vector(b),
                                        "inputAVector": .vector(a), "inputBiasVector": .vector(bias)], inputImage: inputImage) }
    static func vec(_ key: String, _ d: [Double], _ what: String) -> FilterParameter {
        FilterParameter(key: key, kind: .vector, description: what, default: .vector(d), count: 4)
    }
    public static let descriptor = FilterDescriptor(
        name: "ColorMatrix", displayName: "Color Matrix",
        categories: [FilterCategory.colorAdjustment, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Multiplies unpremultiplied RGBA by a 4×4 matrix and adds a bias.",
        parameters: [CommonParameters.inputImage,
                     vec("inputRVector", [1, 0, 0, 0], "Weights of R, G, B, A in the output red."),
                     vec("inputGVector", [0, 1, 0, 0], "Weights in the output green."),
                     vec("inputBVector", [0, 0, 1, 0], "Weights in the output blue."),
                     vec("inputAVector", [0, 0, 0, 1], "Weights in the output alpha."),
                     vec("inputBiasVector", [0, 0, 0, 0], "Added to each output component.")]
    ) { args throws(DaguerreError) in
        let input = try args.image("inputImage")
        func f(_ k: String) -> SIMD4<Float> { let v = args.vector(k); return SIMD4(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3])) }
        let R = f("inputRVector"), G = f("inputGVector"), B = f("inputBVector"), A = f("inputAVector"), bias = f("inputBiasVector")
        // Columns, for three FMAs per pixel.
        let c0 = SIMD4(R.x, G.x, B.x, A.x), c1 = SIMD4(R.y, G.y, B.y, A.y), c2 = SIMD4(R.z, G.z, B.z, A.z), c3 = SIMD4(R.w, G.w, B.w, A.w)
        let opaqueSafe = A == SIMD4(0, 0, 0, 1) && bias.w == 0
        // With no bias and alpha passed through, unpremultiply·M·premultiply is M itself: linear.
        let isLinear = A == SIMD4(0, 0, 0, 1) && bias == .zero && R.w == 0 && G.w == 0 && B.w == 0
        let linear = isLinear ? Matrix3([R.x, R.y, R.z, G.x, G.y, G.z, B.x, B.y, B.z].map(Double.init)) : nil
        return Image(PointwiseNode(name: "colorMatrix", inputs: [input.node], extent: input.extent,
                                   parameters: "R\(R) G\(G) B\(B) A\(A) bias\(bias)", linear: linear,
                                   digest: { d in for k in ["inputRVector", "inputGVector", "inputBVector", "inputAVector", "inputBiasVector"] { d.add(args.vector(k)) } }) { span in
            let p = span.pixels, c0 = c0, c1 = c1, c2 = c2, c3 = c3, bias = bias, opaqueSafe = opaqueSafe
            for i in 0..<span.count {
                var v = p[i]
                let straight = v.w != 1
                if straight { v = SpanMath.unpremultiply(v) }
                var o = bias
                o.addProduct(c0, SIMD4(repeating: v.x)); o.addProduct(c1, SIMD4(repeating: v.y))
                o.addProduct(c2, SIMD4(repeating: v.z)); o.addProduct(c3, SIMD4(repeating: v.w))
                if opaqueSafe && !straight { o.w = 1 }
                p[i] = straight || o.w != 1 ? SpanMath.premultiply(o) : o
            }
        })
    }
}
