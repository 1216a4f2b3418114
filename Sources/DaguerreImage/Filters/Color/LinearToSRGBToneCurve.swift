import DaguerreCore

/// Encodes with the sRGB curve (CILinearToSRGBToneCurve): each unpremultiplied colour component
/// is taken as linear and replaced by its sRGB encoding (IEC 61966-2-1, mirrored for negative
/// values and continued above 1 like the extended spaces); alpha kept. It acts on the working
/// space's values as they are, as Core Image's does (I4).
///
/// ```swift
/// let encoded = try linearData.applying(LinearToSRGBToneCurve())
/// ```
public struct LinearToSRGBToneCurve: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "LinearToSRGBToneCurve", displayName: "Linear to sRGB Tone Curve",
        categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Maps each colour component through the sRGB encoding curve (linear to encoded).",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let curve = PerceptualCurve.shared
        return Image(
            PointwiseNode(name: "linearToSRGB", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                SpanMath.forEachUnpremultiplied(span) { curve.encode($0) }
            })
    }
}
