import DaguerreCore

/// Mixes the image with the background by a mask's alpha (CIBlendWithAlphaMask): where the mask is
/// opaque the image, where transparent (or outside the mask) the background, in between in
/// proportion: out = background + (image − background)·αmask on premultiplied working-space
/// values (I4).
///
/// ```swift
/// let vignetted = try sharp.applying(BlendWithAlphaMask(backgroundImage: blurred, maskImage: cutout))
/// ```
public struct BlendWithAlphaMask: MaskBlendFilter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public var maskImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil, maskImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
        self.maskImage = maskImage
    }

    static let weight = MaskBlend.alpha

    public static let declaration = declare(
        name: "BlendWithAlphaMask", displayName: "Blend With Alpha Mask", channel: "alpha", full: "opaque", none: "transparent")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try blended() }
}
