import DaguerreCore

/// Morphological gradient (CIMorphologyGradient): dilation minus erosion over a disc of `radius`
/// pixels, per colour channel, so edges light up and flat areas go black; alpha is the
/// dilation's, so an opaque image stays opaque (SPEC I4; OpenCV's `morphologyEx` with
/// `MORPH_GRADIENT` and that disc, on the working space's values).
///
/// ```swift
/// let outlines = try image.applying(MorphologyGradient(radius: 2))
/// ```
public struct MorphologyGradient: Filter {
    public var inputImage: Image?
    public var radius: Double = 5

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MorphologyGradient", displayName: "Morphology Gradient", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Dilation minus erosion: the edges of shapes.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The disc's radius in pixels.", min: 0, max: 500, sliderMax: 50),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let dilated = MorphologyMaximum.disc(input, radius: radius, operation: .maximum, name: "morphologyGradientMax")
        let eroded = MorphologyMaximum.disc(input, radius: radius, operation: .minimum, name: "morphologyGradientMin")
        return Image(
            PointwiseNode(
                name: "morphologyGradient", inputs: [dilated.node, eroded.node], extent: input.extent, parameters: "", digest: { _ in }
            ) {
                span in
                let e = span.input(1)
                for i in 0..<span.count {
                    let d = span.pixels[i]
                    span.pixels[i] = SIMD4(d.x - e[i].x, d.y - e[i].y, d.z - e[i].z, d.w)
                }
            })
    }
}
