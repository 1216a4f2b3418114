import DaguerreCore

/// A gradient between two circles (CIRadialGradient): color0 inside radius0, color1 outside
/// radius1, interpolated in the working space between. Infinite extent. The K2 example's mask.
///
/// ```swift
/// let mask = try RadialGradient(center: [300, 200], radius0: 20, radius1: 150).outputImage()
/// ```
public struct RadialGradient: Filter {
    public var center: [Double]
    public var radius0: Double, radius1: Double
    public var color0: Color, color1: Color
    public init(center: [Double] = [150, 150], radius0: Double = 5, radius1: Double = 100, color0: Color = .white, color1: Color = .black) {
        self.center = center; self.radius0 = radius0; self.radius1 = radius1; self.color0 = color0; self.color1 = color1
    }
    public var values: [String: FilterValue] {
        ["inputCenter": .vector(center), "inputRadius0": .number(radius0), "inputRadius1": .number(radius1),
         "inputColor0": .color(color0), "inputColor1": .color(color1)]
    }
    public static let descriptor = FilterDescriptor(
        name: "RadialGradient", displayName: "Radial Gradient",
        categories: [FilterCategory.gradient, FilterCategory.generator, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Blends two colours between two concentric circles.",
        parameters: [FilterParameter(key: "inputCenter", kind: .position, description: "The centre.", default: [150, 150], min: -1e9, max: 1e9),
                     FilterParameter(key: "inputRadius0", kind: .scalar, description: "Radius of color0.", default: 5, min: 0, max: 1e9, sliderMax: 800),
                     FilterParameter(key: "inputRadius1", kind: .scalar, description: "Radius of color1.", default: 100, min: 0, max: 1e9, sliderMax: 800),
                     FilterParameter(key: "inputColor0", kind: .color, description: "The inner colour.", default: .color(.white)),
                     FilterParameter(key: "inputColor1", kind: .color, description: "The outer colour.", default: .color(.black))]
    ) { a throws(DaguerreError) in
        let c = a.point("inputCenter"), r0 = a.number("inputRadius0"), r1 = a.number("inputRadius1")
        let c0 = a.color("inputColor0"), c1 = a.color("inputColor1")
        return Image(GeneratorNode(name: "radialGradient", parameters: "centre \(c) r \(r0)…\(r1)", digest: { d in
            d.add([c.x, c.y, r0, r1]); FilterValue.color(c0).addDigest(&d); FilterValue.color(c1).addDigest(&d)
        }) { working in
            let a0 = c0.premultiplied(in: working), a1 = c1.premultiplied(in: working)
            let cx = Float(c.x), cy = Float(c.y), lo = Float(min(r0, r1)), span0 = Float(abs(r1 - r0))
            let (inner, outer) = r0 <= r1 ? (a0, a1) : (a1, a0)
            return { span in
                let dy = Float(span.y) + 0.5 - cy
                for i in 0..<span.count {
                    let dx = Float(span.x + i) + 0.5 - cx
                    let d = (dx * dx + dy * dy).squareRoot()
                    let t = span0 > 0 ? min(max((d - lo) / span0, 0), 1) : (d < lo ? 0 : 1)
                    span.pixels[i] = inner + (outer - inner) * t
                }
            }
        })
    }
}
