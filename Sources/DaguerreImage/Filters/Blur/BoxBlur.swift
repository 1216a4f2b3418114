import DaguerreCore

/// Box blur (CIBoxBlur): the mean over a square of `2·round(radius) + 1` pixels. Edges fade as
/// with GaussianBlur.
///
/// ```swift
/// let boxed = try image.applying(BoxBlur(radius: 5))
/// ```
public struct BoxBlur: Filter {
    public var inputImage: Image?
    public var radius: Double = 10

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BoxBlur", displayName: "Box Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Averages a square neighbourhood.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "Half the box width, in pixels.", min: 0, max: 1000, sliderMin: 1, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = Int(radius.rounded())
        if r == 0 { return input }
        let w = SeparableConvolutionNode.boxWeights(radius: r)
        return Image(SeparableConvolutionNode(input: input.node, name: "boxBlur", parameters: "radius \(r)", horizontal: w, vertical: w))
    }
}
