import DaguerreCore

/// A greyscale mask as alpha (CIMaskToAlpha): white whose alpha is the pixel's Rec. 709
/// luminance (of its premultiplied working-space values, clamped to [0, 1]), so black becomes
/// transparent and white opaque white; premultiplied, every channel equals that alpha (I4).
///
/// ```swift
/// let cutout = try photo.applying(BlendWithAlphaMask(backgroundImage: sky, maskImage: try mask.applying(MaskToAlpha())))
/// ```
public struct MaskToAlpha: Filter {
    public var inputImage: Image?

    public init() {}
    public init(inputImage: Image? = nil) { self.inputImage = inputImage }

    public static let declaration = FilterDeclaration<Self>(
        name: "MaskToAlpha", displayName: "Mask to Alpha", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Makes white whose alpha is the pixel's luminance: black becomes transparent.",
        parameters: [.image(\.inputImage)])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        return Image(
            PointwiseNode(name: "maskToAlpha", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
                let p = span.pixels
                for i in 0..<span.count {
                    let a = min(max(SpanMath.luminance(SIMD4(p[i].x, p[i].y, p[i].z, 0)), 0), 1)
                    p[i] = SIMD4(repeating: a)
                }
            })
    }
}
