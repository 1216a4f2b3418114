import DaguerreCore

/// Six-way rotational symmetry (CISixfoldRotatedTile; SPEC I4; wallpaper group p6): hexagons
/// centred on the lattice with a centre at `center`, neighbouring centres `width` apart (the
/// first along `angle`), each made of six copies, turned by multiples of 60°, of the 60° sector
/// of the hexagon at `center` that starts along `angle`. Core Image does not publish its
/// formula; this is the fold `TileLattice.sixfold`, in units of `width`.
///
/// ```swift
/// let tiled = try photo.applying(SixfoldRotatedTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct SixfoldRotatedTile: Filter {
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
        name: "SixfoldRotatedTile", displayName: "Sixfold Rotated Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles with six-way rotational symmetry.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(
            input, name: "sixfoldRotatedTile", parameters: center + [angle, width],
            region: [SIMD2(0, 0), SIMD2(0.5, 0), SIMD2(0.5, 0.5 / 3.0.squareRoot()), SIMD2(0.25, 3.0.squareRoot() / 4)]
        ) { ab in
            TileLattice.sixfold(ab)
        }
    }
}
