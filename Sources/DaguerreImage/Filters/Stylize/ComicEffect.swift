import DaguerreCore

/// A comic-book drawing (CIComicEffect, I4): flat colours printed in halftone dots, outlined in
/// black ink. Core Image describes it (edges outlined, a colour halftone) without a formula; the
/// recipe here, from the library's own pieces:
/// 1. ColorPosterize with 6 levels flattens the colours, on their sRGB encoding
///    (LinearToSRGBToneCurve before it, SRGBToneCurveToLinear after it), so the levels are
///    spread evenly to the eye rather than in linear light, which would turn the darker half of
///    the image black;
/// 2. CMYKHalftone with its defaults (6-pixel screens centred at (150, 150), angle 0,
///    sharpness 0.7, GCR 1, UCR 0.5) prints them in dots;
/// 3. the ink: black with alpha clamp((|∇Y| − 0.3) · 10, 0, 1), |∇Y| the magnitude of the 3×3
///    Sobel gradient (as Edges computes it, edge pixels repeated outward) of the input's
///    Rec. 709 luminance, Y, on its premultiplied working-space values;
/// 4. the ink over the print (SourceOverCompositing).
///
/// ```swift
/// let comic = try photo.applying(ComicEffect())
/// ```
public struct ComicEffect: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    /// The recipe's constants: posterize levels, the ink's threshold and contrast.
    static let levels: Double = 6
    static let inkThreshold: Float = 0.3
    static let inkContrast: Float = 10

    public static let declaration = FilterDeclaration<Self>(
        name: "ComicEffect", displayName: "Comic Effect", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Flat colours in halftone dots, outlined in black ink.", parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let encoded = try LinearToSRGBToneCurve(inputImage: input).outputImage()
        let posterized = try ColorPosterize(inputImage: encoded, levels: Self.levels).outputImage()
        let flat = try SRGBToneCurveToLinear(inputImage: posterized).outputImage()
        let print = try CMYKHalftone(inputImage: flat).outputImage()
        let ink = LineOverlay.ink(input, intensity: 1, threshold: Self.inkThreshold, contrast: Self.inkContrast)
        return ink.composited(over: print)
    }
}
