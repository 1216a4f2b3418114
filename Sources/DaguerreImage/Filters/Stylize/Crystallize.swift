import DaguerreCore

/// Polygonal crystals (CICrystallize, I4): a Voronoi diagram of one random point per
/// `radius`-pixel square of a grid with a corner at `center`; each pixel takes the colour at
/// its nearest point (see CellSampling). Core Image publishes no formula; the points here are
/// defined exactly so they can be checked: square (i, j)'s point is
/// `center + radius·(i + u, j + v)` with u = H(i, j, 0)/2³², v = H(i, j, 1)/2³², where
/// H(i, j, k) = wang(i·0x8DA6B343 ⊕ j·0xD8163841 ⊕ k·0xCB1AB31F) on 32-bit words and `wang` is
/// Thomas Wang's integer hash (x ⊕ 61 ⊕ x≫16; ×9; ⊕ x≫4; ×0x27D4EB2D; ⊕ x≫15).
///
/// ```swift
/// let glass = try image.applying(Crystallize(radius: 12))
/// ```
public struct Crystallize: Filter {
    public var inputImage: Image?
    public var radius: Double = 20
    public var center: [Double] = [150, 150]

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius, center: [Double] = Self.defaults.center) {
        self.inputImage = inputImage
        self.radius = radius
        self.center = center
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Crystallize", displayName: "Crystallize", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Makes the image out of polygons, each the colour at its seed point.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The grid spacing of the seed points, in pixels.", min: 1, max: 10000, sliderMax: 100),
            .position(\.center, "inputCenter", "A corner of the seed grid.", min: -1e6, max: 1e6),
        ])

    /// Thomas Wang's 32-bit integer hash.
    @inline(__always) static func wang(_ v: UInt32) -> UInt32 {
        var x = (v ^ 61) ^ (v >> 16)
        x = x &* 9
        x ^= x >> 4
        x = x &* 0x27D4_EB2D
        x ^= x >> 15
        return x
    }

    /// Square (i, j)'s seed, in units of the grid relative to `center`.
    @inline(__always) static func seed(_ i: Int, _ j: Int) -> SIMD2<Double> {
        let key = UInt32(truncatingIfNeeded: i) &* 0x8DA6_B343 ^ UInt32(truncatingIfNeeded: j) &* 0xD816_3841
        let u = Double(wang(key)) / 4_294_967_296
        let v = Double(wang(key ^ 0xCB1A_B31F)) / 4_294_967_296
        return SIMD2(Double(i) + u, Double(j) + v)
    }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let r = radius
        return try CellSampling.image(
            input, name: "crystallize", parameters: "radius \(r) centre \(center)", reach: 2 * r,
            digest: { d in d.add([c.x, c.y, r]) }
        ) { p in c + Self.nearestSeed((p - c) / r) * r }
    }

    /// The seed nearest `g` (grid units). A point's own square's seed is within √2; any seed
    /// three or more squares away is at least 2 away, so the 5×5 squares around it hold it.
    @inline(__always) static func nearestSeed(_ g: SIMD2<Double>) -> SIMD2<Double> {
        let i0 = Int(g.x.rounded(.down))
        let j0 = Int(g.y.rounded(.down))
        var best = g
        var bestDistance = Double.infinity
        for j in (j0 - 2)...(j0 + 2) {
            for i in (i0 - 2)...(i0 + 2) {
                let q = seed(i, j)
                let dd = ((g - q) * (g - q)).sum()
                if dd < bestDistance {
                    bestDistance = dd
                    best = q
                }
            }
        }
        return best
    }
}
