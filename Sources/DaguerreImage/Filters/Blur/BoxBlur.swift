import DaguerreCore

/// Box blur (CIBoxBlur): the mean over a square of `2·round(radius) + 1` pixels. Edges fade as
/// with GaussianBlur.
///
/// ```swift
/// let boxed = try image.applying(BoxBlur(radius: 5))
/// ```
public struct BoxBlur: Filter {
    public var inputImage: Image?
    public var radius: Double
    public init(inputImage: Image? = nil, radius: Double = 10) { self.inputImage = inputImage; self.radius = radius }
    public var values: [String: FilterValue] { filterValues(["inputRadius": .number(radius)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "BoxBlur", displayName: "Box Blur",
        categories: [FilterCategory.blur, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Averages a square neighbourhood.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputRadius", kind: .scalar, description: "Half the box width, in pixels.", default: 10, min: 0, max: 1000, sliderMin: 1, sliderMax: 100)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), r = Int(a.number("inputRadius").rounded())
        if r == 0 { return input }
        let w = SeparableConvolutionNode.boxWeights(radius: r)
        return Image(SeparableConvolutionNode(input: input.node, name: "boxBlur", parameters: "radius \(r)", horizontal: w, vertical: w))
    }
}
