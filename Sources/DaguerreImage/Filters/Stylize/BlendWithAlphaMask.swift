import DaguerreCore

/// Mixes the image with the background by a mask's alpha (CIBlendWithAlphaMask): where the mask is
/// opaque the image, where transparent (or outside the mask) the background, in between in
/// proportion: out = background + (image − background)·αmask on premultiplied working-space
/// values (I4).
///
/// ```swift
/// let vignetted = try sharp.applying(BlendWithAlphaMask(backgroundImage: blurred, maskImage: cutout))
/// ```
public struct BlendWithAlphaMask: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public var maskImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil, maskImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
        self.maskImage = maskImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BlendWithAlphaMask", displayName: "Blend With Alpha Mask", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Mixes the image with the background by the mask's alpha: opaque keeps the image, transparent the background.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image where the mask is opaque."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image where the mask is transparent."),
            .image(\.maskImage, "inputMaskImage", "A mask whose alpha weighs the image."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try MaskBlend.alpha.blend(required(\.inputImage), over: required(\.backgroundImage), mask: required(\.maskImage))
    }
}
