import DaguerreCore
import Foundation

/// Wraps the image around a transparent circle (CICircularWrap; SPEC I4): the input's rows above
/// `center` are bent into rings outside the circle. An output point at distance r ≥ `radius`
/// from the centre and at angle φ (measured clockwise on screen from straight up, less `angle`,
/// in (−π, π]) reads the input at (center.x + radius·φ, center.y − (r − radius)): the centre's
/// row lies along the circle's rim at its own scale, the rows above it go outward, and the
/// farther out, the more a row is stretched around. Inside the circle the output is
/// transparent. Core Image does not publish its formula; this is Daguerre's definition. Extent:
/// the disc out to where the input's top row lands (radius plus center.y minus the input's
/// top), and at least the circle.
///
/// ```swift
/// let ring = try photo.applying(CircularWrap(center: [320, 400], radius: 80, angle: 0))
/// ```
public struct CircularWrap: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 150
    public var angle: Double = 0

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius,
        angle: Double = Self.defaults.angle
    ) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
        self.angle = angle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "CircularWrap", displayName: "Circular Wrap Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Wraps the image around a transparent circle.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center), RadialDistortion.radius(\.radius),
            .angle(\.angle, "inputAngle", "Turns the wrap, in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let (rad, a) = (radius, angle)
        let reachOut = c.y - input.extent.minY
        // Rings reach as far as the input's top row; the disc never shrinks below the circle, so
        // the extent stays a real (if transparent) area when the input lies below the centre.
        let extent = input.extent.isEmpty ? Rect.null : Warp.disc(c, rad + max(reachOut, 0) + 2)
        return Warp.image(
            input, name: "circularWrap", extent: extent, parameters: [c.x, c.y, rad, a],
            roi: { r in
                // Every point reads the band of rows above the centre, within π·radius across.
                return Rect(minX: c.x - .pi * rad, minY: c.y - max(Warp.farthest(r, from: c) - rad, 0), maxX: c.x + .pi * rad, maxY: c.y)
            }
        ) { p in
            let d = p - c
            let r = (d * d).sum().squareRoot()
            guard r >= rad else { return nil }
            var phi = atan2(d.y, d.x) + .pi / 2 - a
            phi -= 2 * .pi * (phi / (2 * .pi)).rounded()
            return SIMD2(c.x + rad * phi, c.y - (r - rad))
        }
    }
}
