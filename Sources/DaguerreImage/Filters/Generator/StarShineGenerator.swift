import DaguerreCore
import Foundation

/// A star (CIStarShineGenerator, I4): a glowing point with a cross of rays, in one colour on
/// transparency; infinite extent. Core Image publishes no formula; the definition used, with
/// (u, v) a pixel centre's offset from `center` rotated by −crossAngle (u along one arm, y down),
/// ρ = r / radius, w the cross's width, L = crossScale · radius · 2^epsilon the spikes' length
/// (Core Image's epsilon sets it) and o = 2^(crossOpacity/2) their opacity:
/// - core = 1 / (1 + 16ρ²) (half bright at a quarter of the radius; 0 when radius = 0);
/// - arm(a, b) = o · exp(−b² / 2w²) / (1 + (a/L)²) (0 when w or L is 0), for both arms
///   (u, v) and (v, u);
/// - I = clamp(core + arm(u, v) + arm(v, u), 0, 1), and the pixel is the colour (premultiplied,
///   in the working space) times I.
///
/// ```swift
/// let star = try StarShineGenerator(center: [80, 60], radius: 20).outputImage().composited(over: photo)
/// ```
public struct StarShineGenerator: Filter {
    public var center: [Double] = [150, 150]
    public var color = Color(red: 1, green: 0.8, blue: 0.6, alpha: 1)
    public var radius: Double = 50
    public var crossScale: Double = 15
    public var crossAngle: Double = 0.6
    public var crossOpacity: Double = -2
    public var crossWidth: Double = 2.5
    public var epsilon: Double = -2

    public init() {}
    public init(
        center: [Double] = Self.defaults.center, color: Color = Self.defaults.color, radius: Double = Self.defaults.radius,
        crossScale: Double = Self.defaults.crossScale, crossAngle: Double = Self.defaults.crossAngle,
        crossOpacity: Double = Self.defaults.crossOpacity, crossWidth: Double = Self.defaults.crossWidth,
        epsilon: Double = Self.defaults.epsilon
    ) {
        self.center = center
        self.color = color
        self.radius = radius
        self.crossScale = crossScale
        self.crossAngle = crossAngle
        self.crossOpacity = crossOpacity
        self.crossWidth = crossWidth
        self.epsilon = epsilon
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "StarShineGenerator", displayName: "Star Shine", categories: [.generator, .video, .stillImage, .builtIn],
        description: "A glowing star with a cross of rays, on transparency.",
        parameters: [
            .position(\.center, "inputCenter", "The star's centre.", min: -1e9, max: 1e9),
            .color(\.color, "inputColor", "The star's colour."),
            .scalar(\.radius, "inputRadius", "The star's size in pixels.", min: 0, max: 1e9, sliderMax: 300),
            .scalar(
                \.crossScale, "inputCrossScale", "The cross's length, in star radii (times 2^epsilon).", min: 0, max: 1e6, sliderMax: 100),
            .angle(
                \.crossAngle, "inputCrossAngle", "The cross's angle in radians.", min: -1e9, max: 1e9, sliderMin: -3.141592653589793,
                sliderMax: 3.141592653589793),
            .scalar(\.crossOpacity, "inputCrossOpacity", "The cross's opacity: 2^(value/2).", min: -8, max: 64, sliderMax: 0),
            .scalar(\.crossWidth, "inputCrossWidth", "The cross's width in pixels.", min: 0, max: 1e6, sliderMax: 300),
            .scalar(\.epsilon, "inputEpsilon", "The spikes' length: a power of 2 on the cross's length.", min: -8, max: 64, sliderMax: 0),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (cx, cy, c) = (center[0], center[1], color)
        let (radius, width, angle) = (radius, crossWidth, crossAngle)
        let length = crossScale * radius * pow(2, epsilon)
        let opacity = pow(2, crossOpacity / 2)
        let (cosA, sinA) = (cos(angle), sin(angle))
        return Image(
            GeneratorNode(
                name: "starShine", parameters: "centre \(cx),\(cy) radius \(radius) length \(length) width \(width) angle \(angle)",
                digest: { d in
                    d.add([cx, cy, radius, length, opacity, width, angle])
                    FilterValue.color(c).addDigest(&d)
                }
            ) { working in
                let v = c.premultiplied(in: working)
                let arms = width > 0 && length > 0
                return { span in
                    let dy = Double(span.y) + 0.5 - cy
                    for i in 0..<span.count {
                        let dx = Double(span.x + i) + 0.5 - cx
                        var intensity = 0.0
                        if radius > 0 {
                            let rho2 = (dx * dx + dy * dy) / (radius * radius)
                            intensity = 1 / (1 + 16 * rho2)
                        }
                        if arms {
                            let u = dx * cosA + dy * sinA
                            let w = -dx * sinA + dy * cosA
                            intensity += Self.arm(u, w, opacity, width, length) + Self.arm(w, u, opacity, width, length)
                        }
                        span.pixels[i] = v * Float(min(intensity, 1))
                    }
                }
            })
    }

    /// One arm of the cross at `a` pixels along it and `b` across it.
    @inline(__always) static func arm(_ a: Double, _ b: Double, _ opacity: Double, _ width: Double, _ length: Double) -> Double {
        opacity * exp(-b * b / (2 * width * width)) / (1 + (a / length) * (a / length))
    }
}
