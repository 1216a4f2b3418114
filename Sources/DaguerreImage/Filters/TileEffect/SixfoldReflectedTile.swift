import DaguerreCore
import Foundation

/// Six-way reflected symmetry (CISixfoldReflectedTile; SPEC I4; wallpaper group p31m): the plane
/// is cut by three families of mirror lines into equilateral triangles of side `width`, one with
/// a corner at `center` and a side along `angle`; each triangle is made of three copies, turned
/// by 120° about its centre, of the wedge between that centre and the side along `angle`, and
/// neighbouring triangles are mirror images of each other, so six triangles, alternately
/// mirrored, meet at every corner. Core Image does not publish its formula; this is the fold
/// `TileLattice.triangle` followed by `TileLattice.threefold`, in units of `width`.
///
/// ```swift
/// let tiled = try photo.applying(SixfoldReflectedTile(center: [150, 150], angle: 0.3, width: 80)).cropped(to: photo.extent)
/// ```
public struct SixfoldReflectedTile: Filter {
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
        name: "SixfoldReflectedTile", displayName: "Sixfold Reflected Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Tiles with six-way reflected symmetry.",
        parameters: [.image(\.inputImage)] + TileLattice.parameters(center: \.center, angle: \.angle, width: \.width))

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        return lattice.image(
            input, name: "sixfoldReflectedTile", parameters: center + [angle, width],
            region: [SIMD2(0, 0), SIMD2(1, 0), SIMD2(0.5, 0.5 / 3.0.squareRoot())]
        ) { ab in
            TileLattice.threefold(TileLattice.triangle(ab))
        }
    }
}
