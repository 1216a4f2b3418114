import DaguerreCore

/// The source, only where the background is not (CISourceOutCompositing): Porter–Duff source-out,
/// Fa = 1 − αb, Fb = 0, so co = cs·(1 − αb), over the source's extent.
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let outside = try photo.applying(SourceOutCompositing(backgroundImage: texture))
/// ```
public struct SourceOutCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SourceOutCompositing", displayName: "Source Out", categories: [.composite, .video, .stillImage, .builtIn],
        description: "The source, only where the background is not.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.sourceOut.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
