import DaguerreCore
import Foundation

/// Pinches the disc towards its centre (CIPinchDistortion; SPEC I4): inside `radius` the output
/// point at distance r from `center` reads the input on the same ray at radius·(r/radius)^(1/(1 +
/// scale)), farther out, so the content shrinks towards the centre, most there, and meets the
/// unchanged outside at the rim; scale 0 changes nothing. Core Image does not publish its
/// formula; this is Daguerre's definition. Extent: the input's, grown to hold the disc.
///
/// ```swift
/// let pinched = try photo.applying(PinchDistortion(center: [320, 240], radius: 200, scale: 0.8))
/// ```
public struct PinchDistortion: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 300
    public var scale: Double = 0.5

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius,
        scale: Double = Self.defaults.scale
    ) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PinchDistortion", displayName: "Pinch Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Pinches the pixels of a disc towards its centre.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius),
            .scalar(\.scale, "inputScale", "How strongly (0: not at all).", min: 0, max: 1e4, sliderMax: 2),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let rad = radius
        let e = 1 / (1 + scale)
        return RadialDistortion.image(
            input, name: "pinchDistortion", center: c, radius: rad, reach: rad,
            extent: RadialDistortion.extent(input, center: c, radius: rad),
            parameters: [scale]
        ) { d, r in
            guard r < rad, r > 0 else { return d }
            return d * (rad * pow(r / rad, e) / r)
        }
    }
}
