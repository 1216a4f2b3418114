import DaguerreCore

/// A thermal-camera look (CIThermal): luminance mapped onto a ramp from black through dark blue,
/// purple, red, orange and yellow to white. Core Image does not publish its ramp; this uses
/// these seven sRGB stops at equal steps of encoded luminance (see `ColorRamp`) (I4):
/// (0, 0, 0), (0.15, 0, 0.45), (0.5, 0, 0.55), (0.85, 0.15, 0.15), (1, 0.5, 0), (1, 0.85, 0.1), (1, 1, 1).
///
/// ```swift
/// let heat = try photo.applying(Thermal())
/// ```
public struct Thermal: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    static let ramp = ColorRamp(
        name: "thermal",
        stops: [
            SIMD3(0, 0, 0), SIMD3(0.15, 0, 0.45), SIMD3(0.5, 0, 0.55), SIMD3(0.85, 0.15, 0.15), SIMD3(1, 0.5, 0),
            SIMD3(1, 0.85, 0.1), SIMD3(1, 1, 1),
        ])

    public static let declaration = FilterDeclaration<Self>(
        name: "Thermal", displayName: "Thermal", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Maps luminance onto a thermal-camera ramp: black, blue, purple, red, orange, yellow, white.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        Self.ramp.apply(to: try required(\.inputImage))
    }
}
