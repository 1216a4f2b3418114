import DaguerreCore

/// Crop (CICrop): `Image.cropped(to:)` by name.
///
/// ```swift
/// let square = try image.applying(Crop(rectangle: Rect(x: 0, y: 0, width: 300, height: 300)))
/// ```
public struct Crop: Filter {
    public var inputImage: Image?
    public var rectangle: Rect
    public init(inputImage: Image? = nil, rectangle: Rect = Rect(x: -8.98e307, y: -8.98e307, width: 1.79e308, height: 1.79e308)) {
        self.inputImage = inputImage; self.rectangle = rectangle
    }
    public var values: [String: FilterValue] { filterValues(["inputRectangle": .rect(rectangle)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "Crop", displayName: "Crop",
        categories: [FilterCategory.geometry, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Keeps the pixels inside a rectangle.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputRectangle", kind: .rectangle, description: "[x y width height] to keep.",
                                     default: .rect(Rect(x: -8.98e307, y: -8.98e307, width: 1.79e308, height: 1.79e308)))]
    ) { a throws(DaguerreError) in
        try a.image("inputImage").cropped(to: a.rect("inputRectangle"))
    }
}
