import DaguerreCore
import Foundation

/// Exposure in stops (CIExposureAdjust): `rgb × 2^EV`, in linear light, so +1 EV is exactly
/// twice the light.
///
/// ```swift
/// let brighter = try image.applying(ExposureAdjust(ev: 1))
/// ```
public struct ExposureAdjust: Filter {
    public var inputImage: Image?
    /// Stops of exposure. Default 0.5 (Core Image's).
    public var ev: Double
    public init(inputImage: Image? = nil, ev: Double = 0.5) { self.inputImage = inputImage; self.ev = ev }
    public var values: [String: FilterValue] { filterValues(["inputEV": .number(ev)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "ExposureAdjust", displayName: "Exposure Adjust",
        categories: [FilterCategory.colorAdjustment, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Adjusts exposure by a number of stops: multiplies linear colour by 2^EV.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputEV", kind: .scalar, description: "Stops of exposure (+1 doubles the light).",
                                     default: 0.5, min: -64, max: 64, sliderMin: -10, sliderMax: 10)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), ev = a.number("inputEV")
        let k = Double(pow(2, ev))
        // A 3×3 matrix: folded with its linear neighbours, run on planar rows.
        return Image(PointwiseNode(name: "exposureAdjust", inputs: [input.node], extent: input.extent, parameters: "EV \(ev)",
                                   linear: .diagonal(k, k, k), digest: { $0.add(ev) }))
    }
}
