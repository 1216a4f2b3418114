import DaguerreCore

/// Inverts the colours (CIColorInvert): each unpremultiplied channel c becomes 1 − c, alpha
/// kept. Like Core Image, it works on the working space's values, linear light under colour
/// management (mid grey inverts to a light grey, not to itself) and the encoded values without it.
///
/// ```swift
/// let negative = try photo.applying(ColorInvert())
/// ```
public struct ColorInvert: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorInvert", displayName: "Color Invert", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Inverts each colour channel (1 − c), alpha kept.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return Image(
            PointwiseNode(name: "colorInvert", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                SpanMath.forEachUnpremultiplied(span) { v in SIMD4(1 - v.x, 1 - v.y, 1 - v.z, v.w) }
            })
    }
}
