import DaguerreCore

/// How far each pixel is from a mask, as a gradient (CIDistanceGradientFromRedMask; SPEC I4):
/// the mask is the image's pixels whose red is above one half; each pixel's Euclidean distance d
/// to the nearest mask pixel (between centres; 0 on the mask) becomes min(d, maximumDistance) /
/// maximumDistance, 0 to 1, in red, green and blue (so it shows as grey), alpha 1 (see
/// ``DistanceTransformNode``). The extent is infinite: beyond the reach every pixel is 1.
///
/// ```swift
/// let glow = try selection.applying(DistanceGradientFromRedMask(maximumDistance: 40))
/// ```
public struct DistanceGradientFromRedMask: Filter {
    public var inputImage: Image?
    public var maximumDistance: Double = 10

    public init() {}
    public init(inputImage: Image? = nil, maximumDistance: Double = Self.defaults.maximumDistance) {
        self.inputImage = inputImage
        self.maximumDistance = maximumDistance
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DistanceGradientFromRedMask", displayName: "Distance Gradient From Red Mask",
        categories: [.gradient, .video, .stillImage, .builtIn],
        description: "Each pixel's distance to the mask (red above one half), from 0 to 1 at the maximum distance.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The mask: pixels whose red is above one half."),
            .scalar(
                \.maximumDistance, "inputMaximumDistance", "The distance that maps to 1, in pixels.", min: 0, max: 1000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Image(DistanceTransformNode(input: try required(\.inputImage).node, limit: maximumDistance))
    }
}
