import DaguerreCore

/// The source, only where the background is (CISourceInCompositing): Porter–Duff source-in,
/// Fa = αb, Fb = 0, so co = cs·αb, over the intersection of the extents.
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let cutout = try photo.applying(SourceInCompositing(backgroundImage: texture))
/// ```
public struct SourceInCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SourceInCompositing", displayName: "Source In", categories: [.composite, .video, .stillImage, .builtIn],
        description: "The source, only where the background is.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.sourceIn.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
