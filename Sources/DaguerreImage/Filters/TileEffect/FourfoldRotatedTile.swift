import DaguerreCore

/// Four-way rotational symmetry (CIFourfoldRotatedTile; SPEC I4; wallpaper group p4): the square
/// cell with a corner at `center`, side `width` along `angle`, and its copies turned by 90°,
/// 180° and 270° about that corner's opposite, pinwheel-wise. Core Image does not publish its
/// formula; in `TileLattice` coordinates, reduced modulo 2, cell (0, 0) is kept, (1, 0) reads
/// (b, 2 − a), (1, 1) reads (2 − a, 2 − b) and (0, 1) reads (2 − b, a).
///
/// ```swift
/// let tiled = try photo.applying(FourfoldRotatedTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct FourfoldRotatedTile: Filter {
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
        name: "FourfoldRotatedTile", displayName: "Fourfold Rotated Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles with four-way rotational symmetry.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(input, name: "fourfoldRotatedTile", parameters: center + [angle, width], region: TileLattice.unitCell) { ab in
            TileLattice.pinwheel(ab)
        }
    }
}
