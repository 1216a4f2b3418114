import DaguerreCore

/// Porter-Duff source over (CISourceOverCompositing): `Image.composited(over:)` by name.
///
/// ```swift
/// let framed = try logo.applying(SourceOverCompositing(backgroundImage: photo))
/// ```
public struct SourceOverCompositing: Filter {
    public var inputImage: Image?
    public var backgroundImage: Image?

    public init() {}
    public init(inputImage: Image? = nil, backgroundImage: Image? = nil) {
        self.inputImage = inputImage
        self.backgroundImage = backgroundImage
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SourceOverCompositing", displayName: "Source Over", categories: [.composite, .video, .stillImage, .builtIn],
        description: "Places the image over the background.",
        parameters: [
            .image(\.inputImage),
            .image(\.backgroundImage, "inputBackgroundImage", "The image underneath."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try required(\.inputImage).composited(over: required(\.backgroundImage))
    }
}
