import DaguerreCore
import Foundation

/// A Gaussian spot (CIGaussianGradient): color0 at `center` blending to color1 with the weight
/// g = exp(−d² / (2σ²)), σ = radius / 3, at distance d: color1 + (color0 − color1)·g,
/// premultiplied in the working space, so the spot has faded to 1 % of color0 at `radius`.
/// Core Image calls `radius` the distribution's radius and does not publish σ; σ = radius/3 is
/// the definition used here. Infinite extent.
///
/// ```swift
/// let glow = try GaussianGradient(center: [128, 128], radius: 100).outputImage()
/// ```
public struct GaussianGradient: Filter {
    public var center: [Double] = [150, 150]
    public var color0: Color = .white
    public var color1: Color = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public var radius: Double = 300

    public init() {}
    public init(
        center: [Double] = Self.defaults.center, color0: Color = Self.defaults.color0, color1: Color = Self.defaults.color1,
        radius: Double = Self.defaults.radius
    ) {
        self.center = center
        self.color0 = color0
        self.color1 = color1
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "GaussianGradient", displayName: "Gaussian Gradient", categories: [.gradient, .generator, .video, .stillImage, .builtIn],
        description: "A colour at a centre fading into another as a Gaussian of the distance.",
        parameters: [
            .position(\.center, "inputCenter", "The centre.", min: -1e9, max: 1e9),
            .color(\.color0, "inputColor0", "The colour at the centre."),
            .color(\.color1, "inputColor1", "The colour far away."),
            .scalar(\.radius, "inputRadius", "Where the spot has faded to 1 % (3σ), in pixels.", min: 0, max: 1e9, sliderMax: 800),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let c = SIMD2(center[0], center[1])
        let r = radius
        let c0 = color0
        let c1 = color1
        return Image(
            GeneratorNode(
                name: "gaussianGradient", parameters: "centre \(c) radius \(r)",
                digest: { d in
                    d.add([c.x, c.y, r])
                    FilterValue.color(c0).addDigest(&d)
                    FilterValue.color(c1).addDigest(&d)
                }
            ) { working in
                let a0 = c0.premultiplied(in: working)
                let a1 = c1.premultiplied(in: working)
                let sigma = Float(r / 3)
                let k: Float = sigma > 0 ? -1 / (2 * sigma * sigma) : 0
                let cx = Float(c.x)
                let cy = Float(c.y)
                return { span in
                    let dy = Float(span.y) + 0.5 - cy
                    for i in 0..<span.count {
                        let dx = Float(span.x + i) + 0.5 - cx
                        let d2 = dx * dx + dy * dy
                        var g: Float = 1
                        if d2 > 0 && sigma > 0 {
                            let e: Float = exp(k * d2)
                            g = e
                        } else if d2 > 0 {
                            g = 0
                        }
                        span.pixels[i] = a1 + (a0 - a1) * g
                    }
                }
            })
    }
}
