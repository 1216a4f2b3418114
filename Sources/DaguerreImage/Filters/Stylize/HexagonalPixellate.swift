import DaguerreCore
import Foundation

/// Hexagonal cells (CIHexagonalPixellate, I4): the centres form a triangular lattice through
/// `center` with neighbours `scale` pixels apart, rows horizontal (lattice vectors (s, 0) and
/// (s/2, s·√3/2)); each pixel takes the colour at its nearest centre, so the cells are regular
/// hexagons (see CellSampling).
///
/// ```swift
/// let honeycomb = try image.applying(HexagonalPixellate(scale: 20))
/// ```
public struct HexagonalPixellate: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var scale: Double = 8

    public init() {}
    public init(inputImage: Image? = nil, center: [Double] = Self.defaults.center, scale: Double = Self.defaults.scale) {
        self.inputImage = inputImage
        self.center = center
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HexagonalPixellate", displayName: "Hexagonal Pixellate", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Makes the image out of hexagons, each the colour at its centre.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "A hexagon's centre.", min: -1e6, max: 1e6),
            .scalar(\.scale, "inputScale", "The distance between neighbouring centres, in pixels.", min: 1, max: 10000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let s = scale
        let h = s * 3.0.squareRoot() / 2
        return try CellSampling.image(
            input, name: "hexagonalPixellate", parameters: "centre \(center) scale \(s)", reach: s,
            digest: { d in d.add([c.x, c.y, s]) }
        ) { p in
            // Lattice coordinates (i, j) with p = c + i·(s, 0) + j·(s/2, h); the nearest centre is a
            // corner of the rhombus holding p (the lattice's triangles are acute).
            let d = p - c
            let j = d.y / h
            let i = d.x / s - j / 2
            let i0 = i.rounded(.down)
            let j0 = j.rounded(.down)
            var best = c
            var bestDistance = Double.infinity
            for (di, dj) in [(0.0, 0.0), (1, 0), (0, 1), (1, 1)] {
                let q = c + SIMD2((i0 + di) * s + (j0 + dj) * s / 2, (j0 + dj) * h)
                let dd = ((p - q) * (p - q)).sum()
                if dd < bestDistance {
                    bestDistance = dd
                    best = q
                }
            }
            return best
        }
    }
}
