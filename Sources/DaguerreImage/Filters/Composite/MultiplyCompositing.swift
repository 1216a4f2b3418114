import DaguerreCore

/// Multiplies the premultiplied components, alpha included (CIMultiplyCompositing): co = cs·cb,
/// with no source-over step, over the intersection of the extents (the product is transparent
/// elsewhere). W3C does not define it (it is not the multiply blend mode); this is Core Image's
/// `componentMultiply` by name.
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let product = try photo.applying(MultiplyCompositing(backgroundImage: texture))
/// ```
public struct MultiplyCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MultiplyCompositing", displayName: "Multiply", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Multiplies the components of the two images.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.componentMultiply.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
