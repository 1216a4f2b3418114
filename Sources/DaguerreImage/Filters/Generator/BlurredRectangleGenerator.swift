import DaguerreCore
import Foundation

/// A rectangle blurred by a Gaussian (CIBlurredRectangleGenerator; SPEC I4), in closed form:
/// `color` times (Φ((x − x₀)/σ) − Φ((x − x₁)/σ))·(Φ((y − y₀)/σ) − Φ((y − y₁)/σ)) at each pixel
/// centre, Φ the standard normal distribution and [x₀, x₁]×[y₀, y₁] the rectangle, which is the
/// rectangle's indicator convolved with a Gaussian of standard deviation `sigma`,
/// premultiplied in the working space. With σ 0 it is the sharp rectangle, antialiased as
/// ``RoundedRectangleGenerator`` draws it. Core Image publishes no formula; this is the
/// definition used. Extent: the rectangle grown by 4σ (beyond it less than 4e-5 of the colour).
///
/// ```swift
/// let shadow = try BlurredRectangleGenerator(extent: Rect(x: 20, y: 20, width: 200, height: 100), sigma: 8).outputImage()
/// ```
public struct BlurredRectangleGenerator: Filter {
    public var extent = Rect(x: 0, y: 0, width: 100, height: 100)
    public var sigma: Double = 10
    public var color: Color = .white

    public init() {}
    public init(extent: Rect = Self.defaults.extent, sigma: Double = Self.defaults.sigma, color: Color = Self.defaults.color) {
        self.extent = extent
        self.sigma = sigma
        self.color = color
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BlurredRectangleGenerator", displayName: "Blurred Rectangle Generator",
        categories: [.generator, .video, .stillImage, .builtIn],
        description: "A rectangle blurred by a Gaussian, in closed form.",
        parameters: [
            .rectangle(\.extent, "inputExtent", "The rectangle before the blur."),
            .scalar(\.sigma, "inputSigma", "The blur's standard deviation in pixels.", min: 0, max: 1e6, sliderMax: 100),
            .color(\.color, "inputColor", "The rectangle's colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let s = sigma
        let box = RoundedBox(extent, radius: 0)
        guard s > 0 else {
            return try RoundedBoxDrawing.image(name: "blurredRectangle", box: box, color: color, extent: extent) { RoundedBox.coverage($0) }
        }
        let (x0, x1, y0, y1) = (extent.minX, extent.maxX, extent.minY, extent.maxY)
        let k = 1 / (s * 2.0.squareRoot())
        // Φ(a) − Φ(b) = (erf(a/√2) − erf(b/√2)) / 2.
        @Sendable func band(_ v: Double, _ lo: Double, _ hi: Double) -> Double { (erf((v - lo) * k) - erf((v - hi) * k)) / 2 }
        return try RoundedBoxDrawing.image(
            name: "blurredRectangle", box: box, color: color, extent: extent.insetBy(dx: -4 * s, dy: -4 * s), extra: [s],
            at: { x, y in Float(band(x, x0, x1) * band(y, y0, y1)) })
    }
}
