import DaguerreCore

/// The source over the background, only where the background is (CISourceAtopCompositing):
/// Porter–Duff source-atop, Fa = αb, Fb = 1 − αs, so co = cs·αb + cb·(1 − αs) and αo = αb, over
/// the background's extent.
///
/// Core Image's filter library (I4), on the working space's linear values.
///
/// ```swift
/// let clipped = try photo.applying(SourceAtopCompositing(backgroundImage: texture))
/// ```
public struct SourceAtopCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SourceAtopCompositing", displayName: "Source Atop", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Places the source over the background, only where the background is.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.sourceAtop.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
