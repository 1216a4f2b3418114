import DaguerreCore

/// A filled rectangle with rounded corners (CIRoundedRectangleGenerator; SPEC I4): `color` times
/// each pixel's coverage of the shape, clamp(½ − d, 0, 1) with d the signed distance from the
/// pixel's centre to the edge (see ``RoundedBox``; the radius is clamped to half the smaller
/// side), premultiplied in the working space. Core Image publishes no formula; this is the
/// definition used. Extent: `extent`.
///
/// ```swift
/// let badge = try RoundedRectangleGenerator(extent: Rect(x: 0, y: 0, width: 200, height: 80), radius: 20).outputImage()
/// ```
public struct RoundedRectangleGenerator: Filter {
    public var extent = Rect(x: 0, y: 0, width: 100, height: 100)
    public var radius: Double = 10
    public var color: Color = .white

    public init() {}
    public init(extent: Rect = Self.defaults.extent, radius: Double = Self.defaults.radius, color: Color = Self.defaults.color) {
        self.extent = extent
        self.radius = radius
        self.color = color
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "RoundedRectangleGenerator", displayName: "Rounded Rectangle Generator",
        categories: [.generator, .video, .stillImage, .builtIn],
        description: "A filled rectangle with rounded corners.",
        parameters: [
            .rectangle(\.extent, "inputExtent", "The rectangle."),
            .scalar(\.radius, "inputRadius", "The corners' radius in pixels.", min: 0, max: 1e7, sliderMax: 200),
            .color(\.color, "inputColor", "The fill colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try RoundedBoxDrawing.image(name: "roundedRectangle", box: RoundedBox(extent, radius: radius), color: color, extent: extent) {
            RoundedBox.coverage($0)
        }
    }
}
