import DaguerreCore

/// Tiles by glide reflection (CIGlideReflectedTile; SPEC I4; wallpaper group pg): the square cell
/// with a corner at `center`, side `width` along `angle`, repeated along `angle`; every other
/// row is its mirror image across the rows' boundary, shifted by half a cell. Core Image does not
/// publish its formula; in `TileLattice` coordinates, with b reduced modulo 2, rows b < 1 read
/// (a − ⌊a⌋, b) and rows b ≥ 1 read (a + ½ − ⌊a + ½⌋, 2 − b).
///
/// ```swift
/// let tiled = try photo.applying(GlideReflectedTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct GlideReflectedTile: Filter {
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
        name: "GlideReflectedTile", displayName: "Glide Reflected Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles with glide reflections.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(input, name: "glideReflectedTile", parameters: center + [angle, width], region: TileLattice.unitCell) { ab in
            TileLattice.glide(ab)
        }
    }
}
