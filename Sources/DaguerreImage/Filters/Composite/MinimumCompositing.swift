import DaguerreCore

/// The smaller of each premultiplied component, alpha included (CIMinimumCompositing):
/// co = min(cs, cb) over the union of the extents (transparent outside either image), with no
/// source-over step. W3C does not define it; this is Core Image's `componentMin` by name.
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let darker = try photo.applying(MinimumCompositing(backgroundImage: texture))
/// ```
public struct MinimumCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MinimumCompositing", displayName: "Minimum", categories: [.composite, .video, .stillImage, .builtIn],
        description: "The smaller of each component of the two images.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.componentMin.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
