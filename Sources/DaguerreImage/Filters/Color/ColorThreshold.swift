import DaguerreCore

/// Makes each channel black or white at a threshold (CIColorThreshold; SPEC I4): each
/// unpremultiplied red, green and blue value above `threshold` becomes 1, the others 0, alpha
/// kept. Like Core Image, it compares the working space's values: linear light under colour
/// management, so mid grey (0.214 linear) falls below the default 0.5; the encoded values without.
///
/// ```swift
/// let binary = try scan.applying(ColorThreshold(threshold: 0.2))
/// ```
public struct ColorThreshold: Filter {
    public var inputImage: Image?
    public var threshold: Double = 0.5

    public init() {}
    public init(inputImage: Image? = nil, threshold: Double = Self.defaults.threshold) {
        self.inputImage = inputImage
        self.threshold = threshold
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorThreshold", displayName: "Color Threshold", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Each colour channel above the threshold becomes 1, the others 0.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.threshold, "inputThreshold", "The value a channel must exceed to become 1.", sliderMin: 0, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let t = Float(threshold)
        return Image(
            PointwiseNode(name: "colorThreshold", inputs: [input.node], extent: input.extent, parameters: "\(t)", digest: { $0.add(t) }) {
                span in
                SpanMath.forEachUnpremultiplied(span) { v in
                    SIMD4(v.x > t ? 1 : 0, v.y > t ? 1 : 0, v.z > t ? 1 : 0, v.w)
                }
            })
    }
}
