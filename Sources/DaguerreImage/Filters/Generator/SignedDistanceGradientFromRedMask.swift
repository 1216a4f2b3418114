import DaguerreCore

/// How far each pixel is from a mask's edge, signed (CISignedDistanceGradientFromRedMask; SPEC
/// I4): the mask is the image's pixels whose red is above one half; outside it, the Euclidean
/// distance d to the nearest mask pixel (between centres) becomes min(d, maximumDistance) /
/// maximumDistance, 0 to 1; inside it, the distance to the nearest pixel outside, negated, 0 to
/// −1; in red, green and blue, alpha 1 (see ``DistanceTransformNode``). The extent is infinite:
/// beyond the reach every pixel is 1. New in SDK 26; its keys have no `input` prefix, as Core
/// Image's. The default maximum distance (10) is ours: the catalogue gives none.
///
/// ```swift
/// let field = try selection.applying(SignedDistanceGradientFromRedMask(maximumDistance: 40))
/// ```
public struct SignedDistanceGradientFromRedMask: Filter {
    public var inputImage: Image?
    public var maximumDistance: Double = 10

    public init() {}
    public init(inputImage: Image? = nil, maximumDistance: Double = Self.defaults.maximumDistance) {
        (self.inputImage, self.maximumDistance) = (inputImage, maximumDistance)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SignedDistanceGradientFromRedMask", displayName: "Signed Distance Gradient From Red Mask",
        categories: [.gradient, .video, .stillImage, .builtIn],
        description: "Each pixel's distance to the mask's edge (red above one half): 0 to 1 outside, 0 to −1 inside.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The mask: pixels whose red is above one half."),
            .scalar(\.maximumDistance, "maximumDistance", "The distance that maps to ±1, in pixels.", min: 0, max: 1000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Image(DistanceTransformNode(input: try required(\.inputImage).node, limit: maximumDistance, signed: true))
    }
}
