import DaguerreCore

/// Opens a hole (CIHoleDistortion; SPEC I4): inside `radius` of `center` the output is
/// transparent; outside, the output point at distance r reads the input on the same ray at
/// √(r² − radius²), so the image is pushed outward, most near the hole, hardly at all far away.
/// Core Image does not publish its formula; this is Daguerre's definition. Extent: the input's,
/// grown by the radius (and the bilinear reach) on every side.
///
/// ```swift
/// let hole = try photo.applying(HoleDistortion(center: [320, 240], radius: 60))
/// ```
public struct HoleDistortion: Filter {
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
        name: "HoleDistortion", displayName: "Hole Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Opens a transparent hole and pushes the image outward around it.",
        parameters: [.image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius, min: 0.01)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let rad = radius
        let extent = input.extent.isEmpty ? Rect.null : input.extent.insetBy(dx: -rad - 2, dy: -rad - 2)
        // Every point reads on the segment from the centre to itself.
        return RadialDistortion.image(
            input, name: "holeDistortion", center: c, radius: rad, reach: rad, extent: extent, parameters: [],
            roi: { r in r.union(Rect(minX: c.x - 1, minY: c.y - 1, maxX: c.x + 1, maxY: c.y + 1)) }
        ) { d, r in
            guard r >= rad, r > 0 else { return nil }
            return d * ((r * r - rad * rad).squareRoot() / r)
        }
    }
}
