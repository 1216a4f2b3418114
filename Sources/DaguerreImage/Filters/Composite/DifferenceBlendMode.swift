import DaguerreCore

/// The absolute difference of source and background (CIDifferenceBlendMode): W3C `difference`,
/// B = |Cb − Cs|.
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(DifferenceBlendMode(backgroundImage: texture))
/// ```
public struct DifferenceBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DifferenceBlendMode", displayName: "Difference Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "The absolute difference of source and background.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.difference.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
