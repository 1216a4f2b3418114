import DaguerreCore

/// A cubic polynomial per channel (CIColorPolynomial): for each unpremultiplied component x and
/// its coefficients (a0, a1, a2, a3), x' = a0 + a1·x + a2·x² + a3·x³, alpha included (its result
/// clamped to [0, 1]); on the working space's linear values, as Core Image documents the
/// formula (I4). The defaults, (0, 1, 0, 0), leave every channel unchanged.
///
/// ```swift
/// let contrasty = try photo.applying(ColorPolynomial(red: [0, 0.5, 1.5, -1], green: [0, 0.5, 1.5, -1], blue: [0, 0.5, 1.5, -1]))
/// ```
public struct ColorPolynomial: Filter {
    public var inputImage: Image?
    public var red: [Double] = [0, 1, 0, 0]
    public var green: [Double] = [0, 1, 0, 0]
    public var blue: [Double] = [0, 1, 0, 0]
    public var alpha: [Double] = [0, 1, 0, 0]

    public init() {}
    public init(
        inputImage: Image? = nil, red: [Double] = Self.defaults.red, green: [Double] = Self.defaults.green,
        blue: [Double] = Self.defaults.blue, alpha: [Double] = Self.defaults.alpha
    ) {
        self.inputImage = inputImage
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorPolynomial", displayName: "Color Polynomial", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Maps each unpremultiplied channel through a cubic polynomial.",
        parameters: [
            .image(\.inputImage),
            .vector(\.red, "inputRedCoefficients", "a0…a3 of red' = a0 + a1·r + a2·r² + a3·r³.", count: 4),
            .vector(\.green, "inputGreenCoefficients", "The coefficients for green.", count: 4),
            .vector(\.blue, "inputBlueCoefficients", "The coefficients for blue.", count: 4),
            .vector(\.alpha, "inputAlphaCoefficients", "The coefficients for alpha.", count: 4),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let identity: [Double] = [0, 1, 0, 0]
        if red == identity, green == identity, blue == identity, alpha == identity { return input }
        func column(_ k: Int) -> SIMD4<Float> { SIMD4(Float(red[k]), Float(green[k]), Float(blue[k]), Float(alpha[k])) }
        let (a0, a1, a2, a3) = (column(0), column(1), column(2), column(3))
        let rows = [red, green, blue, alpha]
        return Image(
            PointwiseNode(
                name: "colorPolynomial", inputs: [input.node], extent: input.extent,
                parameters: "r\(red) g\(green) b\(blue) a\(alpha)", digest: { d in for v in rows { d.add(v) } }
            ) { span in
                let p = span.pixels
                for i in 0..<span.count {
                    let x = SpanMath.unpremultiply(p[i])
                    // Horner: a0 + x·(a1 + x·(a2 + x·a3)), all four channels at once.
                    var y = a0 + x * (a1 + x * (a2 + x * a3))
                    y.w = min(max(y.w, 0), 1)
                    p[i] = SpanMath.premultiply(y)
                }
            })
    }
}
