import DaguerreCore

/// White balance by colour temperature and tint (CITemperatureAndTint): a Bradford chromatic
/// adaptation, in linear light, that takes the white of `neutral` (the light the image was
/// seen under) to the white of `targetNeutral`. A neutral warmer than the target cools the
/// image, and vice versa.
///
/// ```swift
/// // Shot under tungsten (about 3200 K): make its whites white.
/// let balanced = try image.applying(TemperatureAndTint(neutral: [3200, 0], targetNeutral: [6500, 0]))
/// ```
public struct TemperatureAndTint: Filter {
    public var inputImage: Image?
    /// (temperature in kelvin, tint).
    public var neutral: [Double] = [6500, 0]
    public var targetNeutral: [Double] = [6500, 0]

    public init() {}
    public init(inputImage: Image? = nil, neutral: [Double] = Self.defaults.neutral, targetNeutral: [Double] = Self.defaults.targetNeutral)
    {
        self.inputImage = inputImage
        self.neutral = neutral
        self.targetNeutral = targetNeutral
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "TemperatureAndTint", displayName: "Temperature and Tint", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Adapts the white point from (temperature, tint) to a target (temperature, tint).",
        parameters: [
            .image(\.inputImage),
            .offset(\.neutral, "inputNeutral", "The source white: (kelvin, tint).", min: -100000, max: 100000),
            .offset(\.targetNeutral, "inputTargetNeutral", "The target white: (kelvin, tint).", min: -100000, max: 100000),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let n = neutral
        let t = targetNeutral
        for (property, v) in [(\Self.neutral, n), (\Self.targetNeutral, t)] where !(1000...100000).contains(v[0]) || abs(v[1]) > 1000 {
            throw Self.invalid(property, "temperature must be 1000…100000 K and |tint| ≤ 1000, got \(v)")
        }
        let m = ColorTemperature.adaptation(
            from: ColorTemperature.xy(temperature: n[0], tint: n[1]),
            to: ColorTemperature.xy(temperature: t[0], tint: t[1]))
        return Image(
            PointwiseNode(
                name: "temperatureAndTint", inputs: [input.node], extent: input.extent,
                parameters: "neutral \(n) → \(t)", linear: m,
                digest: { d in
                    d.add(n)
                    d.add(t)
                }))
    }
}
