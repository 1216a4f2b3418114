import DaguerreCore

/// Linear burn or linear dodge depending on the source (CILinearLightBlendMode). W3C does not define
/// it; this uses the common Photoshop-style definition B = clamp(Cb + 2Cs − 1, 0, 1).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(LinearLightBlendMode(backgroundImage: texture))
/// ```
public struct LinearLightBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LinearLightBlendMode", displayName: "Linear Light Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Burns or dodges linearly depending on the source.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.linearLight.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
