import DaguerreCore

/// The larger of each premultiplied component, alpha included (CIMaximumCompositing):
/// co = max(cs, cb) over the union of the extents, with no source-over step. W3C does not define
/// it; this is Core Image's `componentMax` by name.
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let brighter = try photo.applying(MaximumCompositing(backgroundImage: texture))
/// ```
public struct MaximumCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MaximumCompositing", displayName: "Maximum", categories: [.composite, .video, .stillImage, .builtIn],
        description: "The larger of each component of the two images.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.componentMax.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
