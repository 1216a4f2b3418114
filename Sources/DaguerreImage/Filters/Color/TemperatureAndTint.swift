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
    public var neutral: [Double], targetNeutral: [Double]
    public init(inputImage: Image? = nil, neutral: [Double] = [6500, 0], targetNeutral: [Double] = [6500, 0]) {
        self.inputImage = inputImage; self.neutral = neutral; self.targetNeutral = targetNeutral
    }
    public var values: [String: FilterValue] { filterValues(["inputNeutral": .vector(neutral), "inputTargetNeutral": .vector(targetNeutral)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "TemperatureAndTint", displayName: "Temperature and Tint",
        categories: [FilterCategory.colorAdjustment, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Adapts the white point from (temperature, tint) to a target (temperature, tint).",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputNeutral", kind: .offset, description: "The source white: (kelvin, tint).", default: [6500, 0], min: -100000, max: 100000),
                     FilterParameter(key: "inputTargetNeutral", kind: .offset, description: "The target white: (kelvin, tint).", default: [6500, 0], min: -100000, max: 100000)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage")
        let n = a.vector("inputNeutral"), t = a.vector("inputTargetNeutral")
        for (key, v) in [("inputNeutral", n), ("inputTargetNeutral", t)] where !(1000...100000).contains(v[0]) || abs(v[1]) > 1000 {
            throw .invalidParameter(filter: "TemperatureAndTint", key: key, problem: "temperature must be 1000…100000 K and |tint| ≤ 1000, got \(v)")
        }
        let m = ColorTemperature.adaptation(from: ColorTemperature.xy(temperature: n[0], tint: n[1]),
                                            to: ColorTemperature.xy(temperature: t[0], tint: t[1]))
        return Image(PointwiseNode(name: "temperatureAndTint", inputs: [input.node], extent: input.extent,
                                   parameters: "neutral \(n) → \(t)", linear: m, digest: { d in d.add(n); d.add(t) }))
    }
}
