import DaguerreCore

/// The source's luminance with the background's hue and saturation (CILuminosityBlendMode): W3C
/// `luminosity`, B = SetLum(Cb, Lum(Cs)).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(LuminosityBlendMode(backgroundImage: texture))
/// ```
public struct LuminosityBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LuminosityBlendMode", displayName: "Luminosity Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "The source's luminance with the background's hue and saturation.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.luminosity.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
