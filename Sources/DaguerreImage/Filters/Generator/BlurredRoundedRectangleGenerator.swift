import DaguerreCore

/// A rounded rectangle blurred by a Gaussian (CIBlurredRoundedRectangleGenerator; SPEC I4): the
/// shape ``RoundedRectangleGenerator`` draws, its corners of `radius` made superellipses of
/// exponent 2 + 2·`smoothness` (0: circles, 1: the squarer, continuous curve; see
/// ``RoundedBox``), then blurred by ``GaussianBlur`` of standard deviation `sigma`. New in SDK 26:
/// Core Image publishes neither the formula nor defaults, so both are ours (a 100×100 square,
/// radius 10, smoothness 0, σ 10, white); its keys have no `input` prefix, as Core Image's.
/// Extent: the rectangle grown by the blur's reach.
///
/// ```swift
/// let shadow = try BlurredRoundedRectangleGenerator(extent: Rect(x: 20, y: 20, width: 200, height: 100), sigma: 8).outputImage()
/// ```
public struct BlurredRoundedRectangleGenerator: Filter {
    public var extent = Rect(x: 0, y: 0, width: 100, height: 100)
    public var radius: Double = 10
    public var smoothness: Double = 0
    public var sigma: Double = 10
    public var color: Color = .white

    public init() {}
    public init(
        extent: Rect = Self.defaults.extent, radius: Double = Self.defaults.radius, smoothness: Double = Self.defaults.smoothness,
        sigma: Double = Self.defaults.sigma, color: Color = Self.defaults.color
    ) {
        (self.extent, self.radius, self.smoothness, self.sigma, self.color) = (extent, radius, smoothness, sigma, color)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BlurredRoundedRectangleGenerator", displayName: "Blurred Rounded Rectangle Generator",
        categories: [.generator, .video, .stillImage, .builtIn],
        description: "A rounded rectangle blurred by a Gaussian.",
        parameters: [
            .rectangle(\.extent, "extent", "The rectangle before the blur."),
            .scalar(\.radius, "radius", "The corners' radius in pixels.", min: 0, max: 1e6, sliderMax: 100),
            .scalar(\.smoothness, "smoothness", "0 for circular corners, up to 1 for squarer, continuous ones.", min: 0, max: 1),
            .scalar(\.sigma, "sigma", "The blur's standard deviation in pixels.", min: 0, max: 1000, sliderMax: 100),
            .color(\.color, "color", "The rectangle's colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let box = RoundedBox(extent, radius: radius, exponent: 2 + 2 * smoothness)
        let shape = try RoundedBoxDrawing.image(name: "blurredRoundedRectangle", box: box, color: color, extent: extent) {
            RoundedBox.coverage($0)
        }
        return sigma > 0 ? try shape.applying(GaussianBlur(radius: sigma)) : shape
    }
}
