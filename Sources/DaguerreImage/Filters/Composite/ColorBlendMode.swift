import DaguerreCore

/// The source's hue and saturation with the background's luminance (CIColorBlendMode): W3C `color`,
/// B = SetLum(Cs, Lum(Cb)), Lum = 0.3·R + 0.59·G + 0.11·B.
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(ColorBlendMode(backgroundImage: texture))
/// ```
public struct ColorBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorBlendMode", displayName: "Color Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Hue and saturation of the source with the luminance of the background.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.color.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
