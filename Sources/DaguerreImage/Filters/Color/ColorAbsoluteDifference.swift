import DaguerreCore

/// The absolute difference of two images' colours (CIColorAbsoluteDifference; SPEC I4): with u
/// and v the two unpremultiplied linear working-space colours and α, β their alphas, the result's
/// colour is |u − v| per channel and its alpha α·β (premultiplied as usual), so two opaque images
/// give |a − b| and identical images black. It covers both images (outside an image is
/// transparent black).
///
/// ```swift
/// let changes = try frame2.applying(ColorAbsoluteDifference(image2: frame1))
/// ```
public struct ColorAbsoluteDifference: Filter {
    public var inputImage: Image?
    public var image2: Image?

    public init() {}
    public init(inputImage: Image? = nil, image2: Image? = nil) {
        self.inputImage = inputImage
        self.image2 = image2
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorAbsoluteDifference", displayName: "Color Absolute Difference",
        categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "The absolute difference of two images' colours; alpha is the product of theirs.",
        parameters: [
            .image(\.inputImage),
            .image(\.image2, "inputImage2", "The image subtracted."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (a, b) = (try required(\.inputImage), try required(\.image2))
        return Image(
            PointwiseNode(name: "colorAbsoluteDifference", inputs: [a.node, b.node], extent: a.extent.union(b.extent), digest: { _ in }) {
                span in
                let s = span.pixels
                let other = span.input(1)
                for i in 0..<span.count {
                    let (u, v) = (SpanMath.unpremultiply(s[i]), SpanMath.unpremultiply(other[i]))
                    let d: SIMD4<Float> = u - v
                    s[i] = SpanMath.premultiply(SIMD4(abs(d.x), abs(d.y), abs(d.z), u.w * v.w))
                }
            })
    }
}
