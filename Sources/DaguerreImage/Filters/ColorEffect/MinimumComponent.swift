import DaguerreCore

/// A grey image of each pixel's smallest colour component (CIMinimumComponent): r, g and b
/// all become min(r, g, b) of the unpremultiplied colour; alpha kept.
///
/// ```swift
/// let darkest = try photo.applying(MinimumComponent())
/// ```
public struct MinimumComponent: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "MinimumComponent", displayName: "Minimum Component", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Grey of each pixel's smallest colour component, min(r, g, b).",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return Image(
            PointwiseNode(name: "minimumComponent", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                SpanMath.forEachUnpremultiplied(span) { v in
                    let m = min(v.x, v.y, v.z)
                    return SIMD4(m, m, m, v.w)
                }
            })
    }
}
