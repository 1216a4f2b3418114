import DaguerreCore

/// Maps luminance onto a two-colour ramp (CIFalseColor): out = color0 + (color1 − color0)·Y, with
/// Y the Rec. 709 luminance of the unpremultiplied working-space (linear) colour; alpha kept.
/// Core Image does not publish its formula; this is the documented approximation used here (I4).
/// The colours are matched from their own colour space (sRGB unless given) into the working space.
///
/// ```swift
/// let duotone = try photo.applying(FalseColor(color0: Color(red: 0, green: 0, blue: 0.4), color1: Color(red: 1, green: 0.8, blue: 0.2)))
/// ```
public struct FalseColor: Filter {
    public var inputImage: Image?
    public var color0 = Color(red: 0.3, green: 0, blue: 0, alpha: 1)
    public var color1 = Color(red: 1, green: 0.9, blue: 0.8, alpha: 1)

    public init() {}
    public init(inputImage: Image? = nil, color0: Color = Self.defaults.color0, color1: Color = Self.defaults.color1) {
        self.inputImage = inputImage
        self.color0 = color0
        self.color1 = color1
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "FalseColor", displayName: "False Color", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps each pixel's luminance onto the ramp from the first colour (black) to the second (white).",
        parameters: [
            .image(\.inputImage),
            .color(\.color0, "inputColor0", "The colour black becomes."),
            .color(\.color1, "inputColor1", "The colour white becomes."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        // The colours reach the kernel as inputs, matched into the working space.
        func opaque(_ c: Color) -> Image {
            Image(color: Color(red: c.red, green: c.green, blue: c.blue, alpha: 1, colorSpace: c.colorSpace))
        }
        return Image(
            PointwiseNode(
                name: "falseColor", inputs: [input.node, opaque(color0).node, opaque(color1).node], extent: input.extent,
                parameters: "\(color0) \(color1)", digest: { _ in }
            ) { span in
                let c0 = span.input(1)[0]
                let c1 = span.input(2)[0]
                SpanMath.forEachUnpremultiplied(span) { v in
                    let out = c0 + (c1 - c0) * SpanMath.luminance(SIMD4(v.x, v.y, v.z, 0))
                    return SIMD4(out.x, out.y, out.z, v.w)
                }
            })
    }
}
