import DaguerreCore

/// A gradient between two circles (CIRadialGradient): color0 inside radius0, color1 outside
/// radius1, interpolated in the working space between. Infinite extent. The K2 example's mask.
///
/// ```swift
/// let mask = try RadialGradient(center: [300, 200], radius0: 20, radius1: 150).outputImage()
/// ```
public struct RadialGradient: Filter {
    public var center: [Double] = [150, 150]
    public var radius0: Double = 5
    public var radius1: Double = 100
    public var color0: Color = .white
    public var color1: Color = .black

    public init() {}
    public init(
        center: [Double] = Self.defaults.center, radius0: Double = Self.defaults.radius0, radius1: Double = Self.defaults.radius1,
        color0: Color = Self.defaults.color0, color1: Color = Self.defaults.color1
    ) {
        self.center = center
        self.radius0 = radius0
        self.radius1 = radius1
        self.color0 = color0
        self.color1 = color1
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "RadialGradient", displayName: "Radial Gradient", categories: [.gradient, .generator, .video, .stillImage, .builtIn],
        description: "Blends two colours between two concentric circles.",
        parameters: [
            .position(\.center, "inputCenter", "The centre.", min: -1e9, max: 1e9),
            .scalar(\.radius0, "inputRadius0", "Radius of color0.", min: 0, max: 1e9, sliderMax: 800),
            .scalar(\.radius1, "inputRadius1", "Radius of color1.", min: 0, max: 1e9, sliderMax: 800),
            .color(\.color0, "inputColor0", "The inner colour."),
            .color(\.color1, "inputColor1", "The outer colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let c = SIMD2(center[0], center[1])
        let r0 = radius0
        let r1 = radius1
        let c0 = color0
        let c1 = color1
        return Image(
            GeneratorNode(
                name: "radialGradient", parameters: "centre \(c) r \(r0)…\(r1)",
                digest: { d in
                    d.add([c.x, c.y, r0, r1])
                    FilterValue.color(c0).addDigest(&d)
                    FilterValue.color(c1).addDigest(&d)
                }
            ) { working in
                let a0 = c0.premultiplied(in: working)
                let a1 = c1.premultiplied(in: working)
                let cx = Float(c.x)
                let cy = Float(c.y)
                let lo = Float(min(r0, r1))
                let span0 = Float(abs(r1 - r0))
                let (inner, outer) = r0 <= r1 ? (a0, a1) : (a1, a0)
                let delta = outer - inner
                return { span in
                    let dy = Float(span.y) + 0.5 - cy
                    var start = 0
                    // Eight pixels at a time, with the same operations as the loop below (so the
                    // same values), while the coordinates are whole numbers a Float holds exactly.
                    if span0 > 0, abs(span.x) < 1 << 23, span.count < 1 << 23 {
                        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
                        let dy2 = SIMD8<Float>(repeating: dy * dy)
                        while start + 8 <= span.count {
                            let xs = SIMD8<Float>(SIMD8<Int32>(repeating: Int32(span.x + start)) &+ lanes)
                            let dx = xs + 0.5 - cx
                            let d = (dx * dx + dy2).squareRoot()
                            let q = (d - lo) / span0
                            let above = SIMD8<Float>.zero.replacing(with: q, where: q .> .zero)
                            let t = SIMD8<Float>.one.replacing(with: above, where: above .< .one)
                            for j in 0..<8 { span.pixels[start + j] = inner + delta * t[j] }
                            start += 8
                        }
                    }
                    for i in start..<span.count {
                        let dx = Float(span.x + i) + 0.5 - cx
                        let d = (dx * dx + dy * dy).squareRoot()
                        let t = span0 > 0 ? min(max((d - lo) / span0, 0), 1) : (d < lo ? 0 : 1)
                        span.pixels[i] = inner + delta * t
                    }
                }
            })
    }
}
