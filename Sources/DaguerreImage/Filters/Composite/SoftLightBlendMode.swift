import DaguerreCore

/// Darkens or lightens depending on the source (CISoftLightBlendMode): W3C `soft-light`,
/// B = Cs ≤ 0.5 → Cb − (1 − 2Cs)·Cb·(1 − Cb); else Cb + (2Cs − 1)·(D(Cb) − Cb), with
/// D(x) = x ≤ 0.25 ? ((16x − 12)x + 4)x : √x.
///
/// Blended as W3C Compositing and Blending Level 1 composites any blend mode: the blend is mixed
/// into the source by the background's alpha, then composited source-over (see `BlendFormula`),
/// over the union of the extents, on the working space's linear values (I4).
///
/// ```swift
/// let blended = try photo.applying(SoftLightBlendMode(backgroundImage: texture))
/// ```
public struct SoftLightBlendMode: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SoftLightBlendMode", displayName: "Soft Light Blend Mode", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Darkens or lightens depending on the source.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The source image."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try BlendFormula.softLight.composite(required(\.inputImage), over: required(\.backgroundImage))
    }
}
