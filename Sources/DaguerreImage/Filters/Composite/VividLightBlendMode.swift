import DaguerreCore

/// Colour burn or colour dodge depending on the source (CIVividLightBlendMode). W3C does not define
/// it; this uses the common Photoshop-style definition with W3C's burn and dodge:
/// B = Cs ≤ 0.5 ? ColorBurn(Cb, 2Cs) : ColorDodge(Cb, 2Cs − 1).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(VividLightBlendMode(backgroundImage: texture))
/// ```
public struct VividLightBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "VividLightBlendMode", displayName: "Vivid Light Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Burns or dodges the colour depending on the source.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.vividLight.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
