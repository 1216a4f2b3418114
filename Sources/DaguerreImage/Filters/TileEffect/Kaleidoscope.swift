import DaguerreCore
import Foundation

/// A kaleidoscope (CIKaleidoscope; SPEC I4): the plane around `center` is cut into `count` equal
/// wedges, each reading, mirrored, the half-wedge that starts at `angle`. Core Image does not
/// publish its formula; here the output point at polar (r, φ) about the centre reads the input at
/// (r, angle + |ψ − w·round(ψ/w)|) with ψ = φ − angle and w = 2π/count (count rounded to a whole
/// number, at least 1), sampled bilinearly. Infinite extent.
///
/// ```swift
/// let k = try photo.applying(Kaleidoscope(count: 8, center: [320, 240], angle: 0.2)).cropped(to: photo.extent)
/// ```
public struct Kaleidoscope: Filter {
    public var inputImage: Image?
    public var count: Double = 6
    public var center: [Double] = [150, 150]
    public var angle: Double = 0

    public init() {}
    public init(
        inputImage: Image? = nil, count: Double = Self.defaults.count, center: [Double] = Self.defaults.center,
        angle: Double = Self.defaults.angle
    ) {
        self.inputImage = inputImage
        self.count = count
        self.center = center
        self.angle = angle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Kaleidoscope", displayName: "Kaleidoscope", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Mirrors a wedge of the image around a centre, like a kaleidoscope.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.count, "inputCount", "How many mirrored wedges (rounded to a whole number).", min: 1, max: 1000, sliderMax: 64),
            .position(\.center, "inputCenter", "The kaleidoscope's centre.", min: -1e7, max: 1e7),
            .angle(
                \.angle, "inputAngle", "The direction of the wedge read, in radians.", min: -1e4, max: 1e4, sliderMin: -.pi, sliderMax: .pi),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let n = max(1, count.rounded())
        let w = 2 * Double.pi / n
        let c = SIMD2(center[0], center[1])
        let a = angle
        return Warp.image(
            input, name: "kaleidoscope", extent: .infinite, parameters: [n, c.x, c.y, a],
            roi: { r in Warp.disc(c, Warp.farthest(r, from: c)) }
        ) { p in
            let d = p - c
            let r = (d * d).sum().squareRoot()
            let psi = atan2(d.y, d.x) - a
            let folded = a + abs(psi - w * (psi / w).rounded())
            return c + r * SIMD2(cos(folded), sin(folded))
        }
    }
}
