import DaguerreCore
import Foundation

/// A tunnel of light streaks (CILightTunnel; SPEC I4): inside `radius` of `center` the output
/// point at offset d reads the input at d turned by `rotation`; outside, the point at distance
/// r reads the rim of that disc, at d·radius/r turned by rotation·r/radius, so the rim's pixels
/// stream outward in a spiral that winds faster the farther out (rotation 0: straight rays).
/// Angles turn clockwise on screen (y down). Core Image does not publish its formula; this is
/// Daguerre's definition. Every point reads inside the disc; the extent is infinite, as the
/// rays go on without end.
///
/// ```swift
/// let tunnel = try photo.applying(LightTunnel(center: [320, 240], rotation: 0.5, radius: 80))
/// ```
public struct LightTunnel: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var rotation: Double = 0
    public var radius: Double = 100

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, rotation: Double = Self.defaults.rotation,
        radius: Double = Self.defaults.radius
    ) {
        self.inputImage = inputImage
        self.center = center
        self.rotation = rotation
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LightTunnel", displayName: "Light Tunnel Distortion", categories: [.distortionEffect, .video, .stillImage, .builtIn],
        description: "Turns a disc of the image and streams its rim outward in a spiral.",
        parameters: [
            .image(\.inputImage), RadialDistortion.center(\.center),
            .angle(\.rotation, "inputRotation", "The turn in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
            RadialDistortion.radius(\.radius, min: 0.01),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let c = SIMD2(center[0], center[1])
        let (rad, turn) = (radius, rotation)
        let extent = input.extent.isEmpty ? Rect.null : Rect.infinite
        return RadialDistortion.image(
            input, name: "lightTunnel", center: c, radius: rad, reach: rad, extent: extent, parameters: [turn],
            roi: { _ in Warp.disc(c, rad) }
        ) { d, r in
            guard r > rad else { return RadialDistortion.rotate(d, turn) }
            return RadialDistortion.rotate(d * (rad / r), turn * r / rad)
        }
    }
}
