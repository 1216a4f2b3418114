import DaguerreCore

/// A grey image of each pixel's largest colour component (CIMaximumComponent): r, g and b
/// all become max(r, g, b) of the unpremultiplied colour; alpha kept.
///
/// ```swift
/// let brightest = try photo.applying(MaximumComponent())
/// ```
public struct MaximumComponent: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "MaximumComponent", displayName: "Maximum Component", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Grey of each pixel's largest colour component, max(r, g, b).",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return Image(
            PointwiseNode(name: "maximumComponent", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                SpanMath.forEachUnpremultiplied(span) { v in
                    let m = max(v.x, v.y, v.z)
                    return SIMD4(m, m, m, v.w)
                }
            })
    }
}
