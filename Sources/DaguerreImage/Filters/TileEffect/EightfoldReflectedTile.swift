import DaguerreCore

/// Eight-way reflected symmetry (CIEightfoldReflectedTile; SPEC I4; wallpaper group p4m): the
/// right isosceles triangle with its 45° corner at `center`, legs `width`
/// (along `angle`), mirrored in its three sides, eight copies around every square corner. Core
/// Image does not publish its formula; in `TileLattice` coordinates (a, b) → (tri(a), tri(b)),
/// then swapped if b > a, so every point lands in the triangle 0 ≤ b ≤ a ≤ 1.
///
/// ```swift
/// let tiled = try photo.applying(EightfoldReflectedTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct EightfoldReflectedTile: Filter {
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
        name: "EightfoldReflectedTile", displayName: "Eightfold Reflected Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles with eight-way reflected symmetry.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(
            input, name: "eightfoldReflectedTile", parameters: center + [angle, width], region: [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1)]
        ) { ab in
            TileLattice.eightfold(ab)
        }
    }
}
