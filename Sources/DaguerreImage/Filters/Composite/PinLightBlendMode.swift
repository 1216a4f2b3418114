import DaguerreCore

/// Replaces the background depending on the source's brightness (CIPinLightBlendMode). W3C does
/// not define it; this uses the common Photoshop-style definition
/// B = Cs ≤ 0.5 ? min(Cb, 2Cs) : max(Cb, 2Cs − 1).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(PinLightBlendMode(backgroundImage: texture))
/// ```
public struct PinLightBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PinLightBlendMode", displayName: "Pin Light Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Replaces the background depending on the source's brightness.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.pinLight.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
