import DaguerreCore

/// A gradient along a line (CILinearGradient): color0 at point0, color1 at point1, constant
/// beyond both; interpolated in the working space (linear light). Infinite extent.
///
/// ```swift
/// let ramp = try LinearGradient(point0: [0, 0], point1: [1000, 0]).outputImage().cropped(to: Rect(x: 0, y: 0, width: 1000, height: 100))
/// ```
public struct LinearGradient: Filter {
    public var point0: [Double] = [0, 0]
    public var point1: [Double] = [200, 200]
    public var color0: Color = .white
    public var color1: Color = .black

    public init() {}
    public init(
        point0: [Double] = Self.defaults.point0, point1: [Double] = Self.defaults.point1,
        color0: Color = Self.defaults.color0, color1: Color = Self.defaults.color1
    ) {
        self.point0 = point0
        self.point1 = point1
        self.color0 = color0
        self.color1 = color1
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LinearGradient", displayName: "Linear Gradient", categories: [.gradient, .generator, .video, .stillImage, .builtIn],
        description: "Blends two colours along a line.",
        parameters: [
            .position(\.point0, "inputPoint0", "Where color0 is.", min: -1e9, max: 1e9),
            .position(\.point1, "inputPoint1", "Where color1 is.", min: -1e9, max: 1e9),
            .color(\.color0, "inputColor0", "The first colour."),
            .color(\.color1, "inputColor1", "The second colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Image(Self.node(name: "linearGradient", point0, point1, color0, color1) { $0 })
    }

    /// The gradient along p0→p1 with the clamped parameter t ∈ [0, 1] passed through `shape`
    /// (the identity here, smoothstep for SmoothLinearGradient) before the colours are mixed.
    static func node(
        name: String, _ point0: [Double], _ point1: [Double], _ c0: Color, _ c1: Color,
        shape: @escaping @Sendable (Float) -> Float
    ) -> GeneratorNode {
        let p0 = SIMD2(point0[0], point0[1])
        let p1 = SIMD2(point1[0], point1[1])
        let d = p1 - p0
        let len2 = (d * d).sum()
        return GeneratorNode(
            name: name, parameters: "\(p0) \(c0) → \(p1) \(c1)",
            digest: { dg in
                dg.add([p0.x, p0.y, p1.x, p1.y])
                FilterValue.color(c0).addDigest(&dg)
                FilterValue.color(c1).addDigest(&dg)
            }
        ) { working in
            let a0 = c0.premultiplied(in: working)
            let a1 = c1.premultiplied(in: working)
            let dx = Float(len2 > 0 ? d.x / len2 : 0)
            let dy = Float(len2 > 0 ? d.y / len2 : 0)
            let ox = Float(p0.x)
            let oy = Float(p0.y)
            return { span in
                let fy = (Float(span.y) + 0.5 - oy) * dy
                for i in 0..<span.count {
                    let t = shape(min(max((Float(span.x + i) + 0.5 - ox) * dx + fy, 0), 1))
                    span.pixels[i] = a0 + (a1 - a0) * t
                }
            }
        }
    }
}
