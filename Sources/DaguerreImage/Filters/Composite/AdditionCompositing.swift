import DaguerreCore

/// Adds the two images component by component (CIAdditionCompositing): co = cs + cb on premultiplied
/// values, αo = min(1, αs + αb), over the union of the extents. W3C does not define it; this is its
/// Porter–Duff `lighter` with alpha held at 1, Core Image's `componentAdd` by name. Colours are not
/// clamped (the working space is extended range).
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let sum = try photo.applying(AdditionCompositing(backgroundImage: texture))
/// ```
public struct AdditionCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AdditionCompositing", displayName: "Addition", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Adds the colour components of the two images.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.componentAdd.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
