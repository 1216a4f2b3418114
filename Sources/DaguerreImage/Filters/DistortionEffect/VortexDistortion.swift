import DaguerreCore

/// A vortex around a point (CIVortexDistortion; SPEC I4): inside `radius` the output point at
/// offset d (|d| = r) from `center` reads the input at d turned by angle·(1 − r/radius)⁴: many
/// turns at the centre (the default is 18π), falling off faster than TwirlDistortion's, smoothly
/// to nothing at the rim; outside it is unchanged. Core Image does not publish its falloff; this
/// is Daguerre's definition. Positive angles turn clockwise on
/// screen (y down). Extent: the input's, grown to hold the disc.
///
/// ```swift
/// let swirl = try photo.applying(VortexDistortion(center: [320, 240], radius: 200, angle: 30))
/// ```
public struct VortexDistortion: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 300
    public var angle: Double = 56.548667764616276

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius,
        angle: Double = Self.defaults.angle
    ) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
        self.angle = angle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "VortexDistortion", displayName: "Twirl Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Spins pixels around a point like a vortex, many turns at the centre.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius),
            .angle(
                \.angle, "inputAngle", "The turn at the centre, in radians.", min: -1e4, max: 1e4, sliderMin: -30 * .pi, sliderMax: 30 * .pi
            ),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let (rad, a) = (radius, angle)
        return RadialDistortion.image(
            input, name: "vortexDistortion", center: c, radius: rad, reach: rad,
            extent: RadialDistortion.extent(input, center: c, radius: rad),
            parameters: [a]
        ) { d, r in
            guard r < rad else { return d }
            let t = 1 - r / rad
            return RadialDistortion.rotate(d, a * t * t * t * t)
        }
    }
}
