import DaguerreCore
import Foundation

/// A bump along a line (CIBumpDistortionLinear; SPEC I4): the line runs through `center` in the
/// direction (cos angle, sin angle) (angles turn clockwise on screen, y down). An output point
/// at signed distance t from the line, |t| < `radius`, reads the input on the same
/// perpendicular at t·(1 − scale·(1 − t²/radius²)²) from the line, and its position along the
/// line is unchanged: BumpDistortion's profile across a line instead of around a point. A
/// positive scale magnifies the band (convex), a negative one shrinks it (concave). Core Image
/// does not publish its formula; this is Daguerre's definition. Extent: the input's, grown by
/// the radius.
///
/// ```swift
/// let ridge = try photo.applying(BumpDistortionLinear(center: [320, 240], radius: 120, angle: 0.3, scale: 0.5))
/// ```
public struct BumpDistortionLinear: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 300
    public var angle: Double = 0
    public var scale: Double = 0.5

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius,
        angle: Double = Self.defaults.angle, scale: Double = Self.defaults.scale
    ) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
        self.angle = angle
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BumpDistortionLinear", displayName: "Bump Distortion Linear",
        categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Bulges (or dents) a band of the image along a line.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius),
            .angle(\.angle, "inputAngle", "The line's direction in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
            .scalar(\.scale, "inputScale", "Positive bulges, negative dents.", min: -1e4, max: 1e4, sliderMin: -1, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let (rad, s, a) = (radius, scale, angle)
        // The line's normal; a point moves along it by |t|·|scale|·f² ≤ radius·|scale| at most.
        let n = SIMD2(-sin(a), cos(a))
        let reach = rad * abs(s)
        let extent = input.extent.isEmpty ? Rect.null : input.extent.insetBy(dx: -rad - 2, dy: -rad - 2)
        return Warp.image(
            input, name: "bumpDistortionLinear", extent: extent, parameters: [c.x, c.y, rad, a, s],
            roi: { r in r.insetBy(dx: -reach * abs(n.x), dy: -reach * abs(n.y)) }
        ) { p in
            let t = ((p - c) * n).sum()
            guard abs(t) < rad else { return p }
            let f = 1 - t * t / (rad * rad)
            return p - n * (t * s * f * f)
        }
    }
}
