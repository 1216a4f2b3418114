import DaguerreCore

/// Darkens the background to reflect the source (CIColorBurnBlendMode): W3C `color-burn`,
/// B = Cb = 1 → 1; Cs = 0 → 0; else 1 − min(1, (1 − Cb)/Cs).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(ColorBurnBlendMode(backgroundImage: texture))
/// ```
public struct ColorBurnBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorBurnBlendMode", displayName: "Color Burn Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Darkens the background to reflect the source.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.colorBurn.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
