import DaguerreCore

/// Gaussian blur (CIGaussianBlur); `inputRadius` is the standard deviation in pixels, as in
/// OpenCV's `GaussianBlur(sigmaX:)`. Separable, radius ⌈3σ⌉. Pixels outside the image count as
/// transparent, so edges fade, as in Core Image: use `clampedToExtent()` first, then crop to the
/// original extent, to replicate the edges instead.
///
/// ```swift
/// let soft = try image.clampedToExtent().applying(GaussianBlur(radius: 2)).cropped(to: image.extent)
/// ```
public struct GaussianBlur: Filter {
    public var inputImage: Image?
    public var radius: Double = 10

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "GaussianBlur", displayName: "Gaussian Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Blurs with a Gaussian of the given standard deviation.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "Standard deviation in pixels.", min: 0, max: 1000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if radius == 0 { return input }
        let w = SeparableConvolutionNode.gaussianWeights(sigma: radius)
        return Image(
            SeparableConvolutionNode(input: input.node, name: "gaussianBlur", parameters: "σ \(radius)", horizontal: w, vertical: w))
    }
}
