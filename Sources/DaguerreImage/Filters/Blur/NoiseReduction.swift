import DaguerreCore

/// Smooths small changes and sharpens large ones (CINoiseReduction, I4). Core Image describes it
/// (changes in luminance below the noise level are noise and are blurred; larger ones are edges
/// and are sharpened) without a formula; the definition here, per pixel, with b a Gaussian blur
/// of σ = 1 pixel (edges repeated outward), d = in − b the detail and
/// w = clamp(|Y(d)| / noiseLevel, 0, 1) (Y: Rec. 709 luminance):
/// out = b + d·w·(1 + sharpness·w). Flat noise (w → 0) becomes the blur; edges (w = 1) get
/// an unsharp mask of amount `sharpness`. Alpha is kept.
///
/// ```swift
/// let clean = try image.applying(NoiseReduction(noiseLevel: 0.03, sharpness: 0.5))
/// ```
public struct NoiseReduction: Filter {
    public var inputImage: Image?
    public var noiseLevel: Double = 0.02
    public var sharpness: Double = 0.4

    public init() {}
    public init(inputImage: Image? = nil, noiseLevel: Double = Self.defaults.noiseLevel, sharpness: Double = Self.defaults.sharpness) {
        self.inputImage = inputImage
        self.noiseLevel = noiseLevel
        self.sharpness = sharpness
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "NoiseReduction", displayName: "Noise Reduction", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Blurs luminance changes below the noise level and sharpens those above it.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.noiseLevel, "inputNoiseLevel", "Luminance changes below this are noise.", min: 0, sliderMax: 0.1),
            .scalar(\.sharpness, "inputSharpness", "How much edges are sharpened.", min: 0, sliderMax: 2),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let level = Float(noiseLevel)
        let s = Float(sharpness)
        let w = SeparableConvolutionNode.gaussianWeights(sigma: 1)
        let blur = SeparableConvolutionNode(
            input: input.clampedToExtent().node, name: "gaussianBlur", parameters: "σ 1", horizontal: w, vertical: w)
        return Image(
            PointwiseNode(
                name: "noiseReduction", inputs: [input.node, blur], extent: input.extent, parameters: "level \(level) sharpness \(s)",
                digest: { d in d.add([Double(level), Double(s)]) }
            ) { span in
                let p = span.pixels
                let b = span.input(1)
                for i in 0..<span.count {
                    let d = p[i] - b[i]
                    let y = abs(SpanMath.luminance(SIMD4(d.x, d.y, d.z, 0)))
                    let k = level > 0 ? min(y / level, 1) : 1
                    var o = b[i] + d * (k * (1 + s * k))
                    o.w = p[i].w
                    p[i] = o
                }
            })
    }
}
