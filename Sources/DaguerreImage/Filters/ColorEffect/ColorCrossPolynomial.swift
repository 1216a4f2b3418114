import DaguerreCore

/// Polynomial cross-products of the channels (CIColorCrossPolynomial): each output channel is
/// the dot product of its ten coefficients with (r, g, b, r², g², b², r·g, g·b, b·r, 1) of the
/// unpremultiplied colour, as Core Image documents the formula, on the working space's linear
/// values; alpha kept (I4). The defaults leave the image unchanged.
///
/// ```swift
/// let swapped = try photo.applying(ColorCrossPolynomial(red: [0, 0, 1, 0, 0, 0, 0, 0, 0, 0], blue: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
/// ```
public struct ColorCrossPolynomial: Filter {
    public var inputImage: Image?
    public var red: [Double] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    public var green: [Double] = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    public var blue: [Double] = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]

    public init() {}
    public init(
        inputImage: Image? = nil, red: [Double] = Self.defaults.red, green: [Double] = Self.defaults.green,
        blue: [Double] = Self.defaults.blue
    ) {
        self.inputImage = inputImage
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorCrossPolynomial", displayName: "Color Cross Polynomial", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps each channel through a polynomial in r, g, b and their products.",
        parameters: [
            .image(\.inputImage),
            .vector(\.red, "inputRedCoefficients", "Weights of r, g, b, r², g², b², rg, gb, br, 1 in the output red.", count: 10),
            .vector(\.green, "inputGreenCoefficients", "The weights for green.", count: 10),
            .vector(\.blue, "inputBlueCoefficients", "The weights for blue.", count: 10),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if red == Self.defaults.red, green == Self.defaults.green, blue == Self.defaults.blue { return input }
        // Column k holds the three channels' weights of term k.
        let columns = (0..<10).map { k in SIMD4(Float(red[k]), Float(green[k]), Float(blue[k]), 0) }
        let table = FloatTable(columns.flatMap { [$0.x, $0.y, $0.z, $0.w] })
        let rows = [red, green, blue]
        return Image(
            PointwiseNode(
                name: "colorCrossPolynomial", inputs: [input.node], extent: input.extent,
                parameters: "r\(red) g\(green) b\(blue)", digest: { d in for v in rows { d.add(v) } }
            ) { span in
                let w = UnsafeRawPointer(table.values).assumingMemoryBound(to: SIMD4<Float>.self)
                SpanMath.forEachUnpremultiplied(span) { v in
                    let (r, g, b) = (v.x, v.y, v.z)
                    var o = w[9]
                    o.addProduct(w[0], SIMD4(repeating: r))
                    o.addProduct(w[1], SIMD4(repeating: g))
                    o.addProduct(w[2], SIMD4(repeating: b))
                    o.addProduct(w[3], SIMD4(repeating: r * r))
                    o.addProduct(w[4], SIMD4(repeating: g * g))
                    o.addProduct(w[5], SIMD4(repeating: b * b))
                    o.addProduct(w[6], SIMD4(repeating: r * g))
                    o.addProduct(w[7], SIMD4(repeating: g * b))
                    o.addProduct(w[8], SIMD4(repeating: b * r))
                    return SIMD4(o.x, o.y, o.z, v.w)
                }
            })
    }
}
