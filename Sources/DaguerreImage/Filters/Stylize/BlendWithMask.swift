import DaguerreCore

/// Mixes the image with the background by a greyscale mask (CIBlendWithMask): where the mask is
/// white the image, where black (or transparent, or outside the mask) the background, in between
/// in proportion. The mask's value is its Rec. 709 luminance on the working space's linear values
/// (Core Image does not publish which value it reads; a grey mask gives the same weight from any
/// channel): out = background + (image − background)·m on premultiplied values (I4).
///
/// ```swift
/// let vignetted = try sharp.applying(BlendWithMask(backgroundImage: blurred, maskImage: radialMask))
/// ```
public struct BlendWithMask: Filter {
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
        name: "BlendWithMask", displayName: "Blend With Mask", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Mixes the image with the background by the mask's luminance: white keeps the image, black the background.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The image where the mask is white."),
            .image(\.backgroundImage, "inputBackgroundImage", "The image where the mask is black."),
            .image(\.maskImage, "inputMaskImage", "A greyscale mask."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try MaskBlend.luminance.blend(required(\.inputImage), over: required(\.backgroundImage), mask: required(\.maskImage))
    }
}
