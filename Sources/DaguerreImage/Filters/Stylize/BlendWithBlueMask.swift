import DaguerreCore

/// Mixes the image with the background by a mask's blue (CIBlendWithBlueMask): where the mask's blue
/// is 1 the image, where 0 (or outside the mask) the background, in between in proportion:
/// out = background + (image − background)·m, m the mask's blue (its premultiplied linear
/// value, clamped to [0, 1]), on premultiplied working-space values (I4).
///
/// ```swift
/// let combined = try sharp.applying(BlendWithBlueMask(backgroundImage: blurred, maskImage: depthMask))
/// ```
public struct BlendWithBlueMask: MaskBlendFilter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public var maskImage: Image?

    static let weight = MaskBlend.blue

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil, maskImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
        self.maskImage = maskImage
    }

    public static let declaration = declare(
        name: "BlendWithBlueMask", displayName: "Blend With Blue Mask", channel: "blue", full: "1", none: "0")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try blended() }
}
