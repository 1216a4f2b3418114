import DaguerreCore

/// The outline of a rectangle with rounded corners (CIRoundedRectangleStrokeGenerator;
/// SPEC I4): a line `width` pixels wide centred on the edge of ``RoundedRectangleGenerator``'s
/// shape, `color` times each pixel's coverage clamp(½ − (|d| − width/2), 0, 1), d the signed
/// distance from the pixel's centre to the edge, premultiplied in the working space. Core Image
/// publishes no formula; this is the definition used. Extent: `extent` grown by half the width
/// and a pixel.
///
/// ```swift
/// let frame = try RoundedRectangleStrokeGenerator(extent: Rect(x: 10, y: 10, width: 200, height: 80), width: 4).outputImage()
/// ```
public struct RoundedRectangleStrokeGenerator: Filter {
    public var extent = Rect(x: 0, y: 0, width: 100, height: 100)
    public var radius: Double = 10
    public var color: Color = .white
    public var width: Double = 10

    public init() {}
    public init(
        extent: Rect = Self.defaults.extent, radius: Double = Self.defaults.radius, color: Color = Self.defaults.color,
        width: Double = Self.defaults.width
    ) {
        self.extent = extent
        self.radius = radius
        self.color = color
        self.width = width
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "RoundedRectangleStrokeGenerator", displayName: "Rounded Rectangle Stroke Generator",
        categories: [.generator, .video, .stillImage, .builtIn],
        description: "The outline of a rectangle with rounded corners.",
        parameters: [
            .rectangle(\.extent, "inputExtent", "The rectangle the line follows."),
            .scalar(\.radius, "inputRadius", "The corners' radius in pixels.", min: 0, max: 1e7, sliderMax: 200),
            .color(\.color, "inputColor", "The line's colour."),
            .scalar(\.width, "inputWidth", "The line's width in pixels, centred on the edge.", min: 0, max: 1e7, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let half = width / 2
        return try RoundedBoxDrawing.image(
            name: "roundedRectangleStroke", box: RoundedBox(extent, radius: radius), color: color,
            extent: extent.insetBy(dx: -half - 1, dy: -half - 1), extra: [width]
        ) { RoundedBox.coverage(abs($0) - half) }
    }
}
