import DaguerreCore

/// Multiplies or screens depending on the background (CIOverlayBlendMode): W3C `overlay`,
/// B = HardLight(Cs, Cb), hard light with the roles swapped.
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(OverlayBlendMode(backgroundImage: texture))
/// ```
public struct OverlayBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "OverlayBlendMode", displayName: "Overlay Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Multiplies or screens depending on the background.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.overlay.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
