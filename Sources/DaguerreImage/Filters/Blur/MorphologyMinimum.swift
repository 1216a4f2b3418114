import DaguerreCore

/// Erosion (CIMorphologyMinimum): each channel's minimum over a disc of `radius` pixels (the
/// pixels with dx² + dy² ≤ radius²), on the working space's premultiplied values. Radius 0 is
/// the identity. The disc covers only pixels inside the image, so edges do not darken (SPEC I4;
/// OpenCV's `erode` with that disc).
///
/// ```swift
/// let thinned = try image.applying(MorphologyMinimum(radius: 3))
/// ```
public struct MorphologyMinimum: Filter {
    public var inputImage: Image?
    public var radius: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MorphologyMinimum", displayName: "Morphology Minimum", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Each channel's minimum over a disc: dark detail grows.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The disc's radius in pixels.", min: 0, max: 500, sliderMax: 50),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try MorphologyMaximum.disc(required(\.inputImage), radius: radius, operation: .minimum, name: "morphologyMinimum")
    }
}
