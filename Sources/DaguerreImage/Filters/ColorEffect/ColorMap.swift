import DaguerreCore

/// Maps luminance through a gradient image (CIColorMap): each pixel takes the colour the
/// gradient has at the position its luminance gives along the gradient's middle row, out =
/// G(Y)·α. Y is the Rec. 709 luminance of the unpremultiplied working-space (linear) colour,
/// clamped to [0, 1]; Y = 0 is the centre of the gradient's first pixel, Y = 1 that of its last,
/// with linear interpolation between pixel centres. Core Image does not publish its formula;
/// this is the documented approximation used here (I4). The gradient needs a finite extent
/// (crop a generated gradient first).
///
/// ```swift
/// let ramp = try LinearGradient(point0: [0, 0], point1: [256, 0], color0: .black, color1: .white).outputImage().cropped(to: Rect(x: 0, y: 0, width: 256, height: 1))
/// let mapped = try photo.applying(ColorMap(gradientImage: ramp))
/// ```
public struct ColorMap: Filter {
    public var inputImage: Image?
    public var gradientImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, gradientImage: Image? = nil) {
        self.inputImage = inputImage
        self.gradientImage = gradientImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorMap", displayName: "Color Map", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Replaces each pixel by the gradient image's colour at the pixel's luminance (left is dark, right light).",
        parameters: [
            .image(\.inputImage),
            .image(\.gradientImage, "inputGradientImage", "The gradient, read along its middle row from left (black) to right (white)."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let gradient = try required(\.gradientImage)
        let g = gradient.extent.integral
        guard !gradient.extent.isInfinite, g.width > 0, g.height > 0 else {
            throw Self.invalid(\.gradientImage, "the gradient needs a finite, non-empty extent; crop it first (cropped(to:))")
        }
        let row = g.y + (g.height - 1) / 2
        let (x0, last) = (g.x, g.width - 1)
        let rowRect = Rect(x: Double(g.x), y: Double(row), width: Double(g.width), height: 1)
        return Image(
            SamplingNode(
                name: "colorMap", inputs: [input.node, gradient.node], extent: input.extent, parameters: "gradient row \(row)",
                outputFormat: nil, digest: { $0.add(row) },
                roi: { index, r in index == 0 ? r : rowRect }
            ) { samplers, p in
                let v = samplers[0].read(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
                guard v.w > 0 else { return .zero }
                let c = SpanMath.unpremultiply(v)
                let u = min(max(SpanMath.luminance(SIMD4(c.x, c.y, c.z, 0)), 0), 1) * Float(last)
                let k = min(Int(u), max(last - 1, 0))
                let f = u - Float(k)
                let a = samplers[1].read(x: x0 + k, y: row)
                let b = samplers[1].read(x: x0 + min(k + 1, last), y: row)
                return (a + (b - a) * f) * v.w
            })
    }
}
