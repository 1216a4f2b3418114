import DaguerreCore
import Foundation

/// A glass rod with rounded ends (CIGlassLozenge; SPEC I4): the lozenge is every point within
/// `radius` of the segment from `point0` to `point1`. An output point inside it, at offset d
/// (|d| = r) from its nearest point q on the segment, reads the input at q + d·(1 − k·(1 − r²/radius²)),
/// where k = 1 − 1/refraction clamped to [−1, 1): across the rod's axis the middle is magnified
/// by the refractive index, fading to none at the rim (below 1 it shrinks); along the axis
/// nothing moves. Outside the image is unchanged. Core Image does not publish its formula;
/// this is Daguerre's definition. Extent: the input's, grown to hold the lozenge.
///
/// ```swift
/// let rod = try photo.applying(GlassLozenge(point0: [100, 200], point1: [400, 220], radius: 60, refraction: 1.5))
/// ```
public struct GlassLozenge: Filter {
    public var inputImage: Image?
    public var point0: [Double] = [150, 150]
    public var point1: [Double] = [350, 150]
    public var radius: Double = 100
    public var refraction: Double = 1.7

    public init() {}
    public init(
        inputImage: Image? = nil, point0: [Double] = Self.defaults.point0, point1: [Double] = Self.defaults.point1,
        radius: Double = Self.defaults.radius, refraction: Double = Self.defaults.refraction
    ) {
        self.inputImage = inputImage
        self.point0 = point0
        self.point1 = point1
        self.radius = radius
        self.refraction = refraction
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "GlassLozenge", displayName: "Glass Lozenge", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Looks at the image through a glass rod with rounded ends.",
        parameters: [
            .image(\.inputImage),
            .position(\.point0, "inputPoint0", "One end of the rod's axis.", min: -1e7, max: 1e7),
            .position(\.point1, "inputPoint1", "The other end of the rod's axis.", min: -1e7, max: 1e7),
            .scalar(\.radius, "inputRadius", "The rod's radius.", min: 0, max: 1e6, sliderMin: 0, sliderMax: 1000),
            .scalar(\.refraction, "inputRefraction", "The glass's refractive index.", min: 0, max: 100, sliderMin: 0, sliderMax: 5),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let (a, b) = (SIMD2(point0[0], point0[1]), SIMD2(point1[0], point1[1]))
        let rad = radius
        let k = min(max(1 - 1 / refraction, -1), 1)
        let axis = b - a
        let length2 = (axis * axis).sum()
        // The box of the points within `m` of the axis (built directly: the segment's own box may
        // have no area, and an empty rectangle does not grow).
        func around(_ m: Double) -> Rect {
            Rect(minX: min(a.x, b.x) - m, minY: min(a.y, b.y) - m, maxX: max(a.x, b.x) + m, maxY: max(a.y, b.y) + m)
        }
        // The lozenge's box; points in it read within radius·(1 − k) ≤ 2·radius of the axis.
        let box = around(rad)
        let reach = around(rad * max(1, 1 - k))
        let extent = input.extent.isEmpty ? Rect.null : input.extent.union(box)
        return Warp.image(
            input, name: "glassLozenge", extent: extent, parameters: [a.x, a.y, b.x, b.y, rad, k],
            roi: { r in r.intersection(box).isEmpty ? r : r.union(reach) }
        ) { p in
            let s = length2 > 0 ? min(max(((p - a) * axis).sum() / length2, 0), 1) : 0
            let q = a + axis * s
            let d = p - q
            let r2 = (d * d).sum()
            guard r2 < rad * rad else { return p }
            return q + d * (1 - k * (1 - r2 / (rad * rad)))
        }
    }
}
