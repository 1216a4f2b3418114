import DaguerreCore

/// Lifts shadows and tames highlights (CIHighlightShadowAdjust), judged on perceptual
/// luminance. With a radius, tones are judged on a blurred luminance, so the adjustment follows
/// regions rather than pixels (local tone mapping); colour is scaled, not shifted, so hues keep.
///
/// ```swift
/// let opened = try image.applying(HighlightShadowAdjust(radius: 10, shadowAmount: 0.6, highlightAmount: 0.8))
/// ```
public struct HighlightShadowAdjust: Filter {
    public var inputImage: Image?
    public var radius: Double = 0
    public var shadowAmount: Double = 0
    public var highlightAmount: Double = 1

    public init() {}
    public init(
        inputImage: Image? = nil, radius: Double = Self.defaults.radius, shadowAmount: Double = Self.defaults.shadowAmount,
        highlightAmount: Double = Self.defaults.highlightAmount
    ) {
        self.inputImage = inputImage
        self.radius = radius
        self.shadowAmount = shadowAmount
        self.highlightAmount = highlightAmount
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HighlightShadowAdjust", displayName: "Highlight and Shadow Adjust",
        categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Brightens shadows (shadow amount > 0) and darkens highlights (highlight amount < 1).",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "Blur radius of the tone judgement; 0 is per pixel.", min: 0, max: 500, sliderMax: 20),
            .scalar(\.shadowAmount, "inputShadowAmount", "Shadow lift, −1…1.", min: -1, max: 1),
            .scalar(\.highlightAmount, "inputHighlightAmount", "Highlight level, 0…1 (1 leaves them).", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = radius
        let s = Float(shadowAmount)
        let h = Float(highlightAmount)
        let curve = PerceptualCurve.shared
        // Perceptual luminance of each pixel (and, with a radius, blurred).
        let luma = PointwiseNode(name: "perceptualLuminance", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
            let p = span.pixels
            for i in 0..<span.count {
                let l = curve.encode(SpanMath.luminance(SpanMath.unpremultiply(p[i])))
                p[i] = SIMD4(l, l, l, 1)
            }
        }
        let base: ImageNode =
            r > 0
            ? SeparableConvolutionNode(
                input: ClampNode(input: luma), name: "gaussianBlur", parameters: "σ \(r)",
                horizontal: SeparableConvolutionNode.gaussianWeights(sigma: r),
                vertical: SeparableConvolutionNode.gaussianWeights(sigma: r))
            : luma
        return Image(
            PointwiseNode(
                name: "highlightShadowAdjust", inputs: [input.node, base], extent: input.extent,
                parameters: "radius \(r) shadows \(s) highlights \(h)",
                digest: { d in
                    d.add(r)
                    d.add(s)
                    d.add(h)
                }
            ) { span in
                let p = span.pixels
                let b = span.input(1)
                for i in 0..<span.count {
                    let v = SpanMath.unpremultiply(p[i])
                    let y = SpanMath.luminance(v)
                    guard y > 0 else { continue }
                    let l = curve.encode(y)
                    let t = min(max(b[i].x, 0), 1)
                    var l2 = l + s * 2 * (1 - t) * (1 - t) * t  // a lift peaking in the shadows
                    l2 *= 1 - (1 - h) * 0.5 * t * t  // compression growing into highlights
                    let g = curve.decode(max(l2, 0)) / y
                    var o = v * g
                    o.w = v.w
                    p[i] = SpanMath.premultiply(o)
                }
            })
    }
}
