import DaguerreCore

/// Erosion by a rectangle (CIMorphologyRectangleMinimum): each channel's minimum over a
/// `width`×`height` rectangle centred on the pixel, on the working space's premultiplied
/// values. Core Image rounds the sizes to odd numbers; so does this (an even size goes up by one).
/// The rectangle covers only pixels inside the image, so the extent is kept (SPEC I4; OpenCV's
/// `erode` with a rectangular element).
///
/// ```swift
/// let result = try image.applying(MorphologyRectangleMinimum(width: 9, height: 3))
/// ```
public struct MorphologyRectangleMinimum: Filter {
    public var inputImage: Image?
    public var width: Double = 5
    public var height: Double = 5

    public init() {}
    public init(inputImage: Image? = nil, width: Double = Self.defaults.width, height: Double = Self.defaults.height) {
        self.inputImage = inputImage
        self.width = width
        self.height = height
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MorphologyRectangleMinimum", displayName: "Morphology Rectangle Minimum",
        categories: [.blur, .video, .stillImage, .builtIn],
        description: "Each channel's minimum over a rectangle.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.width, "inputWidth", "The rectangle's width in pixels (made odd).", min: 1, max: 1001, sliderMax: 50),
            .scalar(\.height, "inputHeight", "The rectangle's height in pixels (made odd).", min: 1, max: 1001, sliderMax: 50),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        try MorphologyNode.rectangle(required(\.inputImage), width: width, height: height, operation: .minimum)
    }
}
