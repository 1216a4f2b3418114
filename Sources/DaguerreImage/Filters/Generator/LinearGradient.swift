import DaguerreCore

/// A gradient along a line (CILinearGradient): color0 at point0, color1 at point1, constant
/// beyond both; interpolated in the working space (linear light). Infinite extent.
///
/// ```swift
/// let ramp = try LinearGradient(point0: [0, 0], point1: [1000, 0]).outputImage().cropped(to: Rect(x: 0, y: 0, width: 1000, height: 100))
/// ```
public struct LinearGradient: Filter {
    public var point0: [Double], point1: [Double]
    public var color0: Color, color1: Color
    public init(point0: [Double] = [0, 0], point1: [Double] = [200, 200], color0: Color = .white, color1: Color = .black) {
        self.point0 = point0; self.point1 = point1; self.color0 = color0; self.color1 = color1
    }
    public var values: [String: FilterValue] {
        ["inputPoint0": .vector(point0), "inputPoint1": .vector(point1), "inputColor0": .color(color0), "inputColor1": .color(color1)]
    }
    public static let descriptor = FilterDescriptor(
        name: "LinearGradient", displayName: "Linear Gradient",
        categories: [FilterCategory.gradient, FilterCategory.generator, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Blends two colours along a line.",
        parameters: [FilterParameter(key: "inputPoint0", kind: .position, description: "Where color0 is.", default: [0, 0], min: -1e9, max: 1e9),
                     FilterParameter(key: "inputPoint1", kind: .position, description: "Where color1 is.", default: [200, 200], min: -1e9, max: 1e9),
                     FilterParameter(key: "inputColor0", kind: .color, description: "The first colour.", default: .color(.white)),
                     FilterParameter(key: "inputColor1", kind: .color, description: "The second colour.", default: .color(.black))]
    ) { a throws(DaguerreError) in
        let p0 = a.point("inputPoint0"), p1 = a.point("inputPoint1"), c0 = a.color("inputColor0"), c1 = a.color("inputColor1")
        let d = p1 - p0, len2 = (d * d).sum()
        return Image(GeneratorNode(name: "linearGradient", parameters: "\(p0) \(c0) → \(p1) \(c1)", digest: { dg in
            dg.add([p0.x, p0.y, p1.x, p1.y]); FilterValue.color(c0).addDigest(&dg); FilterValue.color(c1).addDigest(&dg)
        }) { working in
            let a0 = c0.premultiplied(in: working), a1 = c1.premultiplied(in: working)
            let dx = Float(len2 > 0 ? d.x / len2 : 0), dy = Float(len2 > 0 ? d.y / len2 : 0)
            let ox = Float(p0.x), oy = Float(p0.y)
            return { span in
                let fy = (Float(span.y) + 0.5 - oy) * dy
                for i in 0..<span.count {
                    let t = min(max((Float(span.x + i) + 0.5 - ox) * dx + fy, 0), 1)
                    span.pixels[i] = a0 + (a1 - a0) * t
                }
            }
        })
    }
}
