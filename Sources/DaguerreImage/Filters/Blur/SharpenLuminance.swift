import DaguerreCore

/// Sharpens luminance only (CISharpenLuminance), so colour noise is not amplified: the detail
/// `Y − blur(Y)` (σ = radius) is added to every channel, scaled by `sharpness`.
///
/// ```swift
/// let sharper = try image.applying(SharpenLuminance(sharpness: 0.4))
/// ```
public struct SharpenLuminance: Filter {
    public var inputImage: Image?
    public var sharpness: Double = 0.4
    public var radius: Double = 1.69

    public init() {}
    public init(inputImage: Image? = nil, sharpness: Double = Self.defaults.sharpness, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.sharpness = sharpness
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SharpenLuminance", displayName: "Sharpen Luminance", categories: [.sharpen, .video, .stillImage, .builtIn],
        description: "Increases luminance detail without touching colour.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.sharpness, "inputSharpness", "Amount of detail added.", min: 0, max: 100, sliderMax: 2),
            .scalar(\.radius, "inputRadius", "Detail scale (blur σ) in pixels.", min: 0, max: 100, sliderMax: 20),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let s = Float(sharpness)
        let r = radius
        if s == 0 || r == 0 { return input }
        let luma = PointwiseNode(name: "luminance", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
            let p = span.pixels
            for i in 0..<span.count {
                let y = SpanMath.luminance(p[i])
                p[i] = SIMD4(y, y, y, p[i].w)
            }
        }
        let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
        let blur = SeparableConvolutionNode(
            input: ClampNode(input: luma), name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w)
        return Image(
            PointwiseNode(
                name: "sharpenLuminance", inputs: [input.node, blur], extent: input.extent,
                parameters: "sharpness \(s) radius \(r)",
                digest: { d in
                    d.add(s)
                    d.add(r)
                }
            ) { span in
                let p = span.pixels
                let b = span.input(1)
                for i in 0..<span.count {
                    let detail = (SpanMath.luminance(p[i]) - b[i].x) * s
                    var o = p[i] + SIMD4(repeating: detail * (p[i].w > 0 ? 1 : 0))
                    o.w = p[i].w
                    p[i] = o
                }
            })
    }
}
