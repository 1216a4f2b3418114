import DaguerreCore

/// Divides the background by the source (CIDivideBlendMode). W3C does not define it; this uses the
/// common Photoshop-style definition B = Cs > 0 ? min(1, Cb/Cs) : (Cb > 0 ? 1 : 0).
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(DivideBlendMode(backgroundImage: texture))
/// ```
public struct DivideBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DivideBlendMode", displayName: "Divide Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Divides the background by the source.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.divide.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
