import DaguerreCore

/// Dilation (CIMorphologyMaximum): each channel's maximum over a disc of `radius` pixels (the
/// pixels with dx² + dy² ≤ radius²), on the working space's premultiplied values. Radius 0 is
/// the identity. The disc covers only pixels inside the image, so the extent is kept (SPEC I4;
/// Core Image does not publish its element or border; this is OpenCV's `dilate` with that disc).
///
/// ```swift
/// let grown = try image.applying(MorphologyMaximum(radius: 3))
/// ```
public struct MorphologyMaximum: Filter {
    public var inputImage: Image?
    public var radius: Double = 0

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MorphologyMaximum", displayName: "Morphology Maximum", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Each channel's maximum over a disc: bright detail grows.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The disc's radius in pixels.", min: 0, max: 500, sliderMax: 50),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try MorphologyMaximum.disc(required(\.inputImage), radius: radius, operation: .maximum, name: "morphologyMaximum")
    }

    /// The disc morphology both MorphologyMaximum and MorphologyMinimum apply.
    static func disc(_ input: Image, radius: Double, operation: MorphologyNode.Operation, name: String) -> Image {
        guard radius >= 1 else { return input }
        return Image(
            MorphologyNode(
                input: input.node, operation: operation, halfWidths: MorphologyNode.discHalfWidths(radius: radius), name: name,
                parameters: "disc radius \(radius)"))
    }
}
