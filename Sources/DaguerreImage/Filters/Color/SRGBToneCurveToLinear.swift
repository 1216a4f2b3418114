import DaguerreCore

/// Decodes the sRGB curve (CISRGBToneCurveToLinear): each unpremultiplied colour component is
/// taken as sRGB-encoded and replaced by its linear value (IEC 61966-2-1, mirrored for negative
/// values and continued above 1 like the extended spaces); alpha kept. It acts on the working
/// space's values as they are, as Core Image's does (I4).
///
/// ```swift
/// let linearised = try encodedData.applying(SRGBToneCurveToLinear())
/// ```
public struct SRGBToneCurveToLinear: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "SRGBToneCurveToLinear", displayName: "sRGB Tone Curve to Linear",
        categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Maps each colour component through the sRGB decoding curve (encoded to linear).",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let curve = PerceptualCurve.shared
        return Image(
            PointwiseNode(name: "srgbToLinear", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                SpanMath.forEachUnpremultiplied(span) { curve.decode($0) }
            })
    }
}
