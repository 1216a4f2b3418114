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
public struct BlendWithMask: MaskBlendFilter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public var maskImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil, maskImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
        self.maskImage = maskImage
    }

    static let weight = MaskBlend.luminance

    public static let declaration = declare(
        name: "BlendWithMask", displayName: "Blend With Mask", channel: "luminance", full: "white", none: "black")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try blended() }
}
