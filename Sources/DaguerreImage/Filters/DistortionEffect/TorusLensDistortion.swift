import DaguerreCore
import Foundation

/// A ring-shaped lens (CITorusLensDistortion; SPEC I4): a glass torus of centre line `radius`
/// around `center` and `width` across. An output point at distance r from the centre with
/// t = (r − radius)/(width/2) in (−1, 1) reads the input on the same ray at distance
/// radius + (width/2)·t·(1 − k·(1 − t²)), where k = 1 − 1/refraction clamped to [−1, 1): glass
/// denser than air (refraction > 1) magnifies the middle of the ring, as a convex lens, the
/// more the denser; 1 leaves it unchanged; below 1 shrinks it. Outside the ring the image is
/// unchanged. Core Image does not publish its formula; this is Daguerre's definition. Extent:
/// the input's, grown to hold the ring.
///
/// ```swift
/// let ring = try photo.applying(TorusLensDistortion(center: [320, 240], radius: 120, width: 60, refraction: 1.5))
/// ```
public struct TorusLensDistortion: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 160
    public var width: Double = 80
    public var refraction: Double = 1.7

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius,
        width: Double = Self.defaults.width, refraction: Double = Self.defaults.refraction
    ) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
        self.width = width
        self.refraction = refraction
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "TorusLensDistortion", displayName: "Torus Lens Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Looks at the image through a ring of glass.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius),
            .scalar(\.width, "inputWidth", "The ring's width across.", min: 0, max: 1e6, sliderMin: 0, sliderMax: 500),
            .scalar(\.refraction, "inputRefraction", "The glass's refractive index.", min: 0, max: 100, sliderMin: 0, sliderMax: 5),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let (rad, half) = (radius, width / 2)
        let k = min(max(1 - 1 / refraction, -1), 1)
        // Points in the ring read within radius + (width/2)·max|t·(1 − k·(1 − t²))| ≤
        // radius + (width/2)·max(1, 1 − k) of the centre.
        let outer = rad + half
        let reach = rad + half * max(1, 1 - k)
        return RadialDistortion.image(
            input, name: "torusLensDistortion", center: c, radius: outer, reach: reach,
            extent: RadialDistortion.extent(input, center: c, radius: outer), parameters: [half, k]
        ) { d, r in
            guard half > 0, r > 0, abs(r - rad) < half else { return d }
            let t = (r - rad) / half
            return d * ((rad + half * t * (1 - k * (1 - t * t))) / r)
        }
    }
}
