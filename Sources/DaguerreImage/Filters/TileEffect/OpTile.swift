import DaguerreCore
import Foundation

/// Cuts the image into square tiles and scales each about its own centre, for an op-art look
/// (CIOpTile; SPEC I4). Core Image does not publish its formula; Daguerre's: the square lattice
/// of side `width` with a corner at `center`, turned by `angle`, cuts the plane into cells, and
/// the output pixel at p in the cell centred on m is the input at m + `scale`·(p − m): each cell
/// shows the `scale`-times wider square around its own centre, shrunk into the cell (scale 1 is
/// the identity, scale 0 fills each cell with the colour at its centre, a rotated pixellate).
///
/// ```swift
/// let art = try photo.applying(OpTile(center: [150, 150], scale: 2.8, angle: 0.2, width: 65)).cropped(to: photo.extent)
/// ```
public struct OpTile: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var scale: Double = 2.8
    public var angle: Double = 0
    public var width: Double = 65

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, scale: Double = Self.defaults.scale,
        angle: Double = Self.defaults.angle, width: Double = Self.defaults.width
    ) {
        self.inputImage = inputImage
        self.center = center
        self.scale = scale
        self.angle = angle
        self.width = width
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "OpTile", displayName: "Op Tile", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Cuts the image into square tiles and scales each about its own centre.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "A corner of a tile.", min: -1e7, max: 1e7),
            .scalar(\.scale, "inputScale", "How many tile widths of the image each tile shows.", min: 0, max: 1e4, sliderMax: 10),
            .angle(\.angle, "inputAngle", "The tiles' rotation in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
            .scalar(\.width, "inputWidth", "The tiles' width.", min: 0, max: 1e6, sliderMax: 200),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lattice = TileLattice(center: center, angle: angle, width: width)
        guard !lattice.isDegenerate else { return .empty }
        let s = scale
        return Warp.image(
            input, name: "opTile", extent: .infinite, parameters: center + [scale, angle, width],
            roi: { r in
                // The cells the rectangle meets, then the source squares their centres read.
                guard !r.isInfinite else { return nil }
                let ab = [
                    SIMD2(r.minX, r.minY), SIMD2(r.maxX, r.minY), SIMD2(r.maxX, r.maxY), SIMD2(r.minX, r.maxY),
                ].map(lattice.coordinates)
                let lo = ab.dropFirst().reduce(ab[0]) { pointwiseMin($0, $1) }.rounded(.down) + 0.5 - s / 2
                let hi = ab.dropFirst().reduce(ab[0]) { pointwiseMax($0, $1) }.rounded(.down) + 0.5 + s / 2
                return lattice.sourceBounds([lo, SIMD2(hi.x, lo.y), hi, SIMD2(lo.x, hi.y)])
            }
        ) { p in
            let ab = lattice.coordinates(p)
            let m = ab.rounded(.down) + 0.5
            return lattice.point(m + s * (ab - m))
        }
    }
}
