import DaguerreCore

/// A hatched halftone (CIHatchedScreen): crossed black lines that thicken with darkness as HalftoneScreen defines it (the hatched screen), on the
/// working space's values. Point-wise: it fuses with the filters around it.
///
/// ```swift
/// let print = try photo.applying(HatchedScreen(width: 8))
/// ```
public struct HatchedScreen: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var angle: Double = 0
    public var width: Double = 6
    public var sharpness: Double = 0.7

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, angle: Double = Self.defaults.angle,
        width: Double = Self.defaults.width, sharpness: Double = Self.defaults.sharpness
    ) {
        self.inputImage = inputImage
        self.center = center
        self.angle = angle
        self.width = width
        self.sharpness = sharpness
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HatchedScreen", displayName: "Hatched Screen", categories: [.halftoneEffect, .video, .stillImage, .builtIn],
        description: "Crossed black lines that thicken with darkness.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "The screen's centre.", min: -1e9, max: 1e9),
            .angle(
                \.angle, "inputAngle", "The screen's angle in radians.", min: -1e9, max: 1e9, sliderMin: -3.141592653589793,
                sliderMax: 3.141592653589793),
            .scalar(\.width, "inputWidth", "The screen's period in pixels.", min: 1, max: 1e9, sliderMax: 50),
            .scalar(\.sharpness, "inputSharpness", "1: hard edges (anti-aliased); lower: softer.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        HalftoneScreen(kind: .hatched, center: center, angle: angle, width: width, sharpness: sharpness)
            .image(of: try required(\.inputImage))
    }
}
