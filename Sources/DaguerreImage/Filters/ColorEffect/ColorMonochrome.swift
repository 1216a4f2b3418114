import DaguerreCore

/// Shades of one colour (CIColorMonochrome): each pixel becomes `color` scaled to the pixel's
/// luminance, mixed with the original by `intensity`:
///
///     mono = color · Y(pixel) / Y(color),   out = (1 − k)·pixel + k·mono
///
/// with Y the Rec. 709 luminance of the working space's linear values (a colour with no
/// luminance gives black). Core Image does not publish its formula; this is a documented
/// approximation that keeps each pixel's luminance, so a grey chart stays in order. The colour is
/// matched from its own colour space (sRGB unless given) into the working space.
///
/// ```swift
/// let sepiaLike = try photo.applying(ColorMonochrome(color: Color(red: 0.6, green: 0.45, blue: 0.3), intensity: 1))
/// ```
public struct ColorMonochrome: Filter {
    public var inputImage: Image?
    public var color = Color(red: 0.6, green: 0.45, blue: 0.3, alpha: 1)
    public var intensity: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, color: Color = Self.defaults.color, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.color = color
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorMonochrome", displayName: "Color Monochrome", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Shades of one colour at each pixel's luminance, mixed with the original by the intensity.",
        parameters: [
            .image(\.inputImage),
            .color(\.color, "inputColor", "The colour whose shades the image takes."),
            .scalar(\.intensity, "inputIntensity", "0 leaves the image, 1 is fully monochrome.", min: 0, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let k = Float(intensity)
        if k == 0 { return input }
        // The colour reaches the kernel as a second input, matched into the working space.
        let tint = Image(color: Color(red: color.red, green: color.green, blue: color.blue, alpha: 1, colorSpace: color.colorSpace))
        return Image(
            PointwiseNode(
                name: "colorMonochrome", inputs: [input.node, tint.node], extent: input.extent, parameters: "\(color) intensity \(k)",
                digest: { d in d.add(Double(k)) }
            ) { span in
                let tint = span.input(1)
                SpanMath.forEachUnpremultiplied(span) { v in
                    let c = tint[0]
                    let yc = SpanMath.luminance(SIMD4(c.x, c.y, c.z, 0))
                    let y = SpanMath.luminance(SIMD4(v.x, v.y, v.z, 0))
                    let mono = yc > 0 ? c * (y / yc) : .zero
                    let out = v + (mono - v) * k
                    return SIMD4(out.x, out.y, out.z, v.w)
                }
            })
    }
}
