import DaguerreCore

/// Replaces up to three colours (CISpotColor, I4). Core Image publishes no formula; the
/// definition here works on unpremultiplied working-space (linear) RGB: for each pair k, with
/// d the Euclidean distance from the pixel to centre colour k and c its closeness, the weight is
/// w = clamp((c − d) / (c·(1 − contrast)), 0, 1) (full inside c·contrast, fading to none at c);
/// the pair with the largest weight (the first of equals) moves the pixel towards its
/// replacement colour by w. Alpha is kept.
///
/// ```swift
/// var f = SpotColor()
/// f.centerColor1 = Color(red: 0.8, green: 0.1, blue: 0.1)
/// f.replacementColor1 = Color(red: 0.1, green: 0.1, blue: 0.8)
/// ```
public struct SpotColor: Filter {
    public var inputImage: Image?
    public var centerColor1 = Color(red: 0.0784, green: 0.0627, blue: 0.0706)
    public var replacementColor1 = Color(red: 0.4392, green: 0.1922, blue: 0.1961)
    public var closeness1: Double = 0.22
    public var contrast1: Double = 0.98
    public var centerColor2 = Color(red: 0.5255, green: 0.3059, blue: 0.3451)
    public var replacementColor2 = Color(red: 0.9137, green: 0.5608, blue: 0.5059)
    public var closeness2: Double = 0.15
    public var contrast2: Double = 0.98
    public var centerColor3 = Color(red: 0.9216, green: 0.4549, blue: 0.3333)
    public var replacementColor3 = Color(red: 0.9098, green: 0.7529, blue: 0.6078)
    public var closeness3: Double = 0.5
    public var contrast3: Double = 0.99

    public init() {}

    public static let declaration = FilterDeclaration<Self>(
        name: "SpotColor", displayName: "Spot Color", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Replaces colours near up to three centre colours.",
        parameters: [
            .image(\.inputImage),
            .color(\.centerColor1, "inputCenterColor1", "The first colour to replace."),
            .color(\.replacementColor1, "inputReplacementColor1", "What the first colour becomes."),
            .scalar(\.closeness1, "inputCloseness1", "How far from the first colour is replaced.", min: 0, sliderMax: 0.5),
            .scalar(
                \.contrast1, "inputContrast1", "How sharply the first replacement fades (0…1; 1 or more: a hard edge).", min: 0,
                sliderMax: 1),
            .color(\.centerColor2, "inputCenterColor2", "The second colour to replace."),
            .color(\.replacementColor2, "inputReplacementColor2", "What the second colour becomes."),
            .scalar(\.closeness2, "inputCloseness2", "How far from the second colour is replaced.", min: 0, sliderMax: 0.5),
            .scalar(
                \.contrast2, "inputContrast2", "How sharply the second replacement fades (0…1; 1 or more: a hard edge).", min: 0,
                sliderMax: 1),
            .color(\.centerColor3, "inputCenterColor3", "The third colour to replace."),
            .color(\.replacementColor3, "inputReplacementColor3", "What the third colour becomes."),
            .scalar(\.closeness3, "inputCloseness3", "How far from the third colour is replaced.", min: 0, sliderMax: 0.5),
            .scalar(
                \.contrast3, "inputContrast3", "How sharply the third replacement fades (0…1; 1 or more: a hard edge).", min: 0,
                sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        // The six colours reach the kernel as constant inputs, matched into the working space.
        let colors = [centerColor1, replacementColor1, centerColor2, replacementColor2, centerColor3, replacementColor3].map {
            Image(color: Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: 1, colorSpace: $0.colorSpace)).node
        }
        let closeness = [closeness1, closeness2, closeness3].map(Float.init)
        let contrast = [contrast1, contrast2, contrast3].map(Float.init)
        return Image(
            PointwiseNode(
                name: "spotColor", inputs: [input.node] + colors, extent: input.extent,
                parameters: "closeness \(closeness) contrast \(contrast)",
                digest: { d in d.add((closeness + contrast).map(Double.init)) }
            ) { span in
                let centres = (0..<3).map { span.input(1 + 2 * $0)[0] }
                let replacements = (0..<3).map { span.input(2 + 2 * $0)[0] }
                SpanMath.forEachUnpremultiplied(span) { v in
                    var best: Float = 0
                    var target = v
                    for k in 0..<3 {
                        let d = v - centres[k]
                        let distance = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
                        let ramp = closeness[k] * (1 - contrast[k])
                        let w =
                            ramp > 0 ? min(max((closeness[k] - distance) / ramp, 0), 1) : (distance <= closeness[k] ? 1 : 0)
                        if w > best {
                            best = w
                            target = replacements[k]
                        }
                    }
                    let out = v + (target - v) * best
                    return SIMD4(out.x, out.y, out.z, v.w)
                }
            })
    }
}
