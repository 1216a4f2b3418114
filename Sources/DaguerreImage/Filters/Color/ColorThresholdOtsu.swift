import DaguerreCore

/// Makes each channel black or white at the threshold Otsu's method finds (CIColorThresholdOtsu;
/// SPEC I4): the threshold is computed from the histogram of the image's luminance (Rec. 709 on
/// its unpremultiplied linear values, 256 bins over [0, 1]; see ``OtsuThreshold``), then each
/// unpremultiplied red, green and blue above it becomes 1 and the others 0, alpha kept, as
/// ``ColorThreshold`` does. The image must be finite: the histogram covers all of it. Core Image
/// does not say which histogram it uses; this is the definition used.
///
/// ```swift
/// let binary = try scan.applying(ColorThresholdOtsu())
/// ```
public struct ColorThresholdOtsu: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorThresholdOtsu", displayName: "Color Threshold Otsu", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Each colour channel above the threshold Otsu's method finds for the image becomes 1, the others 0.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        guard !input.extent.isInfinite else {
            throw Self.invalid(
                \.inputImage, "the image is infinite; Otsu's threshold needs the histogram of a finite image, so crop it first")
        }
        let luminance = LuminanceImage.of(input)
        let threshold = Image(AreaReductionNode(input: luminance.node, region: input.extent, operation: .otsu)).clampedToExtent()
        return Image(
            PointwiseNode(name: "colorThresholdOtsu", inputs: [input.node, threshold.node], extent: input.extent, digest: { _ in }) {
                span in
                let s = span.pixels
                let t = span.input(1)
                for i in 0..<span.count {
                    let v = SpanMath.unpremultiply(s[i])
                    let k = t[i].x
                    s[i] = SpanMath.premultiply(SIMD4(v.x > k ? 1 : 0, v.y > k ? 1 : 0, v.z > k ? 1 : 0, v.w))
                }
            })
    }
}
