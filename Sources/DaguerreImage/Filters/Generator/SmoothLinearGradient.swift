import DaguerreCore

/// A gradient along a line with an S-shaped blend (CISmoothLinearGradient): LinearGradient's
/// parameter t (0 at point0, 1 at point1, clamped) passed through smoothstep, t²(3 − 2t), so the
/// colours ease in and out; mixed premultiplied in the working space. Infinite extent.
///
/// ```swift
/// let ramp = try SmoothLinearGradient(point0: [0, 0], point1: [256, 0]).outputImage().cropped(to: Rect(x: 0, y: 0, width: 256, height: 16))
/// ```
public struct SmoothLinearGradient: Filter {
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
        name: "SmoothLinearGradient", displayName: "Smooth Linear Gradient",
        categories: [.gradient, .generator, .video, .stillImage, .builtIn],
        description: "Blends two colours along a line with an S-curve.",
        parameters: [
            .position(\.point0, "inputPoint0", "Where color0 is.", min: -1e9, max: 1e9),
            .position(\.point1, "inputPoint1", "Where color1 is.", min: -1e9, max: 1e9),
            .color(\.color0, "inputColor0", "The first colour."),
            .color(\.color1, "inputColor1", "The second colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Image(LinearGradient.node(name: "smoothLinearGradient", point0, point1, color0, color1) { t in t * t * (3 - 2 * t) })
    }
}
