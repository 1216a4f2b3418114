import DaguerreCore

/// Splashes a circle's rim outward (CICircleSplashDistortion; SPEC I4): inside `radius` of
/// `center` the image is unchanged; outside, every point reads the rim point on its ray (the
/// output at offset d reads the input at d·radius/|d|), so the rim's colours stream outward.
/// Core Image does not publish its formula; this is Daguerre's definition. Infinite extent.
///
/// ```swift
/// let splash = try photo.applying(CircleSplashDistortion(center: [320, 240], radius: 100)).cropped(to: photo.extent)
/// ```
public struct CircleSplashDistortion: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 150

    public init() {}
    public init(inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "CircleSplashDistortion", displayName: "Circle Splash Distortion",
        categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Streams the pixels on a circle outward from it.",
        parameters: [.image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let rad = radius
        // Inside: the point itself; outside: a point of the rim.
        return RadialDistortion.image(
            input, name: "circleSplashDistortion", center: c, radius: rad, reach: rad, extent: .infinite, parameters: [],
            roi: { _ in Warp.disc(c, rad) }
        ) { d, r in
            guard r > rad, r > 0 else { return d }
            return d * (rad / r)
        }
    }
}
