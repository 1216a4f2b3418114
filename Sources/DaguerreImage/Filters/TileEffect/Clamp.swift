import DaguerreCore

/// Keeps a rectangle and extends its edge pixels outward (CIClamp; SPEC I4): inside `extent`
/// the input is unchanged; beyond it each pixel repeats the nearest pixel of the rectangle
/// (`cropped(to:)` then `clampedToExtent()`). Infinite extent.
///
/// ```swift
/// let band = try photo.applying(Clamp(extent: Rect(x: 0, y: 100, width: 640, height: 1)))
/// ```
public struct Clamp: Filter {
    public var inputImage: Image?
    public var extent = Rect(x: 0, y: 0, width: 640, height: 80)

    public init() {}
    public init(inputImage: Image? = nil, extent: Rect = Self.defaults.extent) {
        self.inputImage = inputImage
        self.extent = extent
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Clamp", displayName: "Clamp", categories: [.tileEffect, .video, .stillImage, .builtIn],
        description: "Keeps a rectangle of the image and extends its edge pixels outward.",
        parameters: [
            .image(\.inputImage),
            .rectangle(\.extent, "inputExtent", "The rectangle kept; its edge pixels are extended."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let kept = input.cropped(to: extent)
        guard !kept.extent.isEmpty else { return .empty }
        return kept.clampedToExtent()
    }
}
