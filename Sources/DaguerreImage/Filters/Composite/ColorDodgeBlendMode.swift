import DaguerreCore

/// Brightens the background to reflect the source (CIColorDodgeBlendMode): W3C `color-dodge`,
/// B = Cb = 0 → 0; Cs = 1 → 1; else min(1, Cb/(1 − Cs)).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(ColorDodgeBlendMode(backgroundImage: texture))
/// ```
public struct ColorDodgeBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorDodgeBlendMode", displayName: "Color Dodge Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Brightens the background to reflect the source.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.colorDodge.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
