import DaguerreCore

/// Mixes the image with the background by a mask's red (CIBlendWithRedMask): where the mask's red
/// is 1 the image, where 0 (or outside the mask) the background, in between in proportion:
/// out = background + (image − background)·m, m the mask's red (its premultiplied linear
/// value, clamped to [0, 1]), on premultiplied working-space values (I4).
///
/// ```swift
/// let combined = try sharp.applying(BlendWithRedMask(backgroundImage: blurred, maskImage: depthMask))
/// ```
public struct BlendWithRedMask: MaskBlendFilter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public var maskImage: Image?

    static let weight = MaskBlend.red

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil, maskImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
        self.maskImage = maskImage
    }

    public static let declaration = declare(
        name: "BlendWithRedMask", displayName: "Blend With Red Mask", channel: "red", full: "1", none: "0")

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image { try blended() }
}
