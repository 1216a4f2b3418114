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
    public var radius: Double
    public init(inputImage: Image? = nil, radius: Double = 10) { self.inputImage = inputImage; self.radius = radius }
    public var values: [String: FilterValue] { filterValues(["inputRadius": .number(radius)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "GaussianBlur", displayName: "Gaussian Blur",
        categories: [FilterCategory.blur, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Blurs with a Gaussian of the given standard deviation.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputRadius", kind: .scalar, description: "Standard deviation in pixels.", default: 10, min: 0, max: 1000, sliderMax: 100)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), r = a.number("inputRadius")
        if r == 0 { return input }
        let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
        return Image(SeparableConvolutionNode(input: input.node, name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w))
    }
}
