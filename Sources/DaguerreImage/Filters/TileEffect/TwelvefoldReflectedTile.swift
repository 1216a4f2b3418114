import DaguerreCore

/// Twelve-way reflected symmetry (CITwelvefoldReflectedTile; SPEC I4; wallpaper group p6m): the
/// equilateral triangle of TriangleTile (corner at `center`, side `width` along `angle`) cut by
/// its medians into six right triangles, one of which, (0, 0), (½, 0), (½, √3/6) in units of
/// `width`, is mirrored in all its sides: twelve copies around every hexagon centre. Core Image
/// does not publish its formula; this is the fold `TileLattice.twelvefold`.
///
/// ```swift
/// let tiled = try photo.applying(TwelvefoldReflectedTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct TwelvefoldReflectedTile: Filter {
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
        name: "TwelvefoldReflectedTile", displayName: "Twelvefold Reflected Tile",
        categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles with twelve-way reflected symmetry.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(
            input, name: "twelvefoldReflectedTile", parameters: center + [angle, width],
            region: [SIMD2(0, 0), SIMD2(0.5, 0), SIMD2(0.5, 3.0.squareRoot() / 6)]
        ) { ab in
            TileLattice.twelvefold(ab)
        }
    }
}
