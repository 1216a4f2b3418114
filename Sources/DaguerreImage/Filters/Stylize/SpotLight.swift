import DaguerreCore
import Foundation

/// A spotlight shining on the image (CISpotLight, I4). Core Image publishes no formula; the
/// definition here, with the image lying in the plane z = 0 of its own (y-down) coordinates and
/// each pixel at its centre P = (x + ½, y + ½, 0): with L the light's position and A the point
/// it aims at, ℓ = (L − P)/|L − P| and a = (A − L)/|A − L|, each pixel's colour is multiplied by
/// `color · brightness · max(ℓ_z, 0) · max(−ℓ·a, 0)^(1/concentration)` (a Lambertian plane
/// lit by a spot whose beam narrows as the concentration falls); alpha is kept.
///
/// ```swift
/// let lit = try image.applying(SpotLight(lightPosition: [400, 100, 300], lightPointsAt: [300, 250, 0]))
/// ```
public struct SpotLight: Filter {
    public var inputImage: Image?
    public var lightPosition: [Double] = [400, 600, 150]
    public var lightPointsAt: [Double] = [200, 200, 0]
    public var brightness: Double = 3
    public var concentration: Double = 0.1
    public var color: Color = .white

    public init() {}
    public init(
        inputImage: Image? = nil, lightPosition: [Double] = Self.defaults.lightPosition,
        lightPointsAt: [Double] = Self.defaults.lightPointsAt, brightness: Double = Self.defaults.brightness,
        concentration: Double = Self.defaults.concentration, color: Color = Self.defaults.color
    ) {
        self.inputImage = inputImage
        self.lightPosition = lightPosition
        self.lightPointsAt = lightPointsAt
        self.brightness = brightness
        self.concentration = concentration
        self.color = color
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SpotLight", displayName: "Spot Light", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Lights the image with a directional spotlight.",
        parameters: [
            .image(\.inputImage),
            .vector(\.lightPosition, "inputLightPosition", "The light's position [x y z] in pixels.", count: 3, min: -1e6, max: 1e6),
            .vector(\.lightPointsAt, "inputLightPointsAt", "The point [x y z] the light aims at.", count: 3, min: -1e6, max: 1e6),
            .scalar(\.brightness, "inputBrightness", "The light's brightness.", min: 0, sliderMax: 10),
            .scalar(\.concentration, "inputConcentration", "The beam's width: smaller is tighter.", min: 0.001, sliderMax: 1.5),
            .color(\.color, "inputColor", "The light's colour."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let light = SIMD3(lightPosition[0], lightPosition[1], lightPosition[2])
        let target = SIMD3(lightPointsAt[0], lightPointsAt[1], lightPointsAt[2])
        let aim = target - light
        let aimLength = (aim * aim).sum().squareRoot()
        guard aimLength > 0 else { throw Self.invalid(\.lightPointsAt, "the light must aim at a point other than its own position") }
        let a = SIMD3<Float>(aim / aimLength)
        let l = SIMD3<Float>(light)
        let exponent = Float(1 / concentration)
        let gain = Float(brightness)
        let tint = Image(color: Color(red: color.red, green: color.green, blue: color.blue, alpha: 1, colorSpace: color.colorSpace))
        return Image(
            PointwiseNode(
                name: "spotLight", inputs: [input.node, tint.node], extent: input.extent,
                parameters: "light \(lightPosition) at \(lightPointsAt) brightness \(brightness) concentration \(concentration)",
                digest: { d in d.add(lightPosition + lightPointsAt + [brightness, concentration]) }
            ) { span in
                let c = span.input(1)[0]
                let p = span.pixels
                let y = Float(span.y) + 0.5
                for i in 0..<span.count {
                    let toLight = l - SIMD3(Float(span.x + i) + 0.5, y, 0)
                    let length = (toLight * toLight).sum().squareRoot()
                    var k: Float = 0
                    if length > 0 {
                        let d = toLight / length
                        k = gain * max(d.z, 0) * powf(max(-(d * a).sum(), 0), exponent)
                    }
                    let v = p[i]
                    p[i] = SIMD4(v.x * c.x * k, v.y * c.y * k, v.z * c.z * k, v.w)
                }
            })
    }
}
