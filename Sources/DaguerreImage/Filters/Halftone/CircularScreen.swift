import DaguerreCore

/// A circular halftone (CICircularScreen): concentric black rings that thicken with darkness as HalftoneScreen defines it (the circular screen), on the
/// working space's values. Point-wise: it fuses with the filters around it.
///
/// ```swift
/// let print = try photo.applying(CircularScreen(width: 8))
/// ```
public struct CircularScreen: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var width: Double = 6
    public var sharpness: Double = 0.7

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center,
        width: Double = Self.defaults.width, sharpness: Double = Self.defaults.sharpness
    ) {
        self.inputImage = inputImage
        self.center = center
        self.width = width
        self.sharpness = sharpness
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "CircularScreen", displayName: "Circular Screen", categories: [.halftoneEffect, .video, .stillImage, .builtIn],
        description: "Concentric black rings that thicken with darkness.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "The screen's centre.", min: -1e9, max: 1e9),
            .scalar(\.width, "inputWidth", "The screen's period in pixels.", min: 1, max: 1e9, sliderMax: 50),
            .scalar(\.sharpness, "inputSharpness", "1: hard edges (anti-aliased); lower: softer.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        HalftoneScreen(kind: .circular, center: center, angle: 0, width: width, sharpness: sharpness)
            .image(of: try required(\.inputImage))
    }
}
