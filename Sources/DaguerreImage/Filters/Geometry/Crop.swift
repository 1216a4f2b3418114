import DaguerreCore

/// Crop (CICrop): `Image.cropped(to:)` by name.
///
/// ```swift
/// let square = try image.applying(Crop(rectangle: Rect(x: 0, y: 0, width: 300, height: 300)))
/// ```
public struct Crop: Filter {
    public var inputImage: Image?
    /// Core Image's default: a rectangle so large it keeps everything.
    public var rectangle = Rect(x: -8.98e307, y: -8.98e307, width: 1.79e308, height: 1.79e308)

    public init() {}
    public init(inputImage: Image? = nil, rectangle: Rect = Self.defaults.rectangle) {
        self.inputImage = inputImage
        self.rectangle = rectangle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Crop", displayName: "Crop", categories: [.geometry, .video, .stillImage, .builtIn],
        description: "Keeps the pixels inside a rectangle.",
        parameters: [
            .image(\.inputImage),
            .rectangle(\.rectangle, "inputRectangle", "[x y width height] to keep."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try required(\.inputImage).cropped(to: rectangle)
    }
}
