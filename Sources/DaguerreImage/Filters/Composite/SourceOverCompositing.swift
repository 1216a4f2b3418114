import DaguerreCore

/// Porter-Duff source over (CISourceOverCompositing): `Image.composited(over:)` by name.
///
/// ```swift
/// let framed = try logo.applying(SourceOverCompositing(backgroundImage: photo))
/// ```
public struct SourceOverCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) { self.inputImage = inputImage; self.backgroundImage = backgroundImage }
    public var values: [String: FilterValue] {
        var v: [String: FilterValue] = [:]
        if let inputImage { v["inputImage"] = .image(inputImage) }
        if let backgroundImage { v["inputBackgroundImage"] = .image(backgroundImage) }
        return v
    }
    public static let descriptor = FilterDescriptor(
        name: "SourceOverCompositing", displayName: "Source Over",
        categories: [FilterCategory.composite, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Places the image over the background.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputBackgroundImage", kind: .image, description: "The image underneath.")]
    ) { a throws(DaguerreError) in
        try a.image("inputImage").composited(over: a.image("inputBackgroundImage"))
    }
}
