import DaguerreCore

/// Mirrors an equilateral triangle in its sides and tiles the result (CITriangleTile; SPEC I4;
/// wallpaper group p3m1): the triangle with a corner at `center`, side `width` along `angle`
/// (its third corner on the side of positive turns, clockwise on screen). Core Image does not
/// publish its formula; this is the fold `TileLattice.triangle` in the lattice's square
/// coordinates, in units of `width`.
///
/// ```swift
/// let tiled = try photo.applying(TriangleTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct TriangleTile: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var angle: Double = 0
    public var width: Double = 100

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, angle: Double = Self.defaults.angle,
        width: Double = Self.defaults.width
    ) {
        self.inputImage = inputImage
        self.center = center
        self.angle = angle
        self.width = width
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "TriangleTile", displayName: "Triangle Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Mirrors a triangle of the image in its sides and tiles the result.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(
            input, name: "triangleTile", parameters: center + [angle, width],
            region: [SIMD2(0, 0), SIMD2(1, 0), SIMD2(0.5, 3.0.squareRoot() / 2)]
        ) { ab in
            TileLattice.triangle(ab)
        }
    }
}
