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
    /// Stops of exposure. Default 0, as Core Image's attributes give it (its archived reference said 0.5).
    public var ev: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, ev: Double = Self.defaults.ev) {
        self.inputImage = inputImage
        self.ev = ev
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ExposureAdjust", displayName: "Exposure Adjust", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Adjusts exposure by a number of stops: multiplies linear colour by 2^EV.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.ev, "inputEV", "Stops of exposure (+1 doubles the light).", min: -64, max: 64, sliderMin: -10, sliderMax: 10),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let ev = self.ev
        let k = Double(pow(2, ev))
        // A 3×3 matrix: folded with its linear neighbours, run on planar rows.
        return Image(
            PointwiseNode(
                name: "exposureAdjust", inputs: [input.node], extent: input.extent, parameters: "EV \(ev)",
                linear: .diagonal(k, k, k), digest: { $0.add(ev) }))
    }
}
