import DaguerreCore

/// A bump in the disc (CIBumpDistortion; SPEC I4): inside `radius` the output point at offset d
/// (|d| = r) from `center` reads the input at d·(1 − scale·(1 − r²/radius²)²): with a positive
/// scale the middle is magnified (convex), with a negative one shrunk (concave); the change fades
/// smoothly to nothing at the rim. Core Image does not publish its formula; this is Daguerre's
/// definition. Extent: the input's, grown to hold the disc.
///
/// ```swift
/// let bulge = try photo.applying(BumpDistortion(center: [320, 240], radius: 150, scale: 0.5))
/// ```
public struct BumpDistortion: Filter {
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
        name: "BumpDistortion", displayName: "Bump Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Bulges (or dents) a disc of the image.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius),
            .scalar(\.scale, "inputScale", "Positive bulges, negative dents.", min: -1e4, max: 1e4, sliderMin: -1, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let (rad, s) = (radius, scale)
        // |1 − s·f| for f in [0, 1] is at most max(1, |1 − s|).
        let reach = rad * max(1, abs(1 - s))
        return RadialDistortion.image(
            input, name: "bumpDistortion", center: c, radius: rad, reach: reach,
            extent: RadialDistortion.extent(input, center: c, radius: rad),
            parameters: [s]
        ) { d, r in
            guard r < rad else { return d }
            let f = 1 - r * r / (rad * rad)
            return d * (1 - s * f * f)
        }
    }
}
