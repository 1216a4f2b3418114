import DaguerreCore

/// An image's luminance as a grey image (SPEC I4): each pixel's Rec. 709 luminance of its
/// unpremultiplied working-space colour (or that luminance's sRGB encoding, `perceptual`), in
/// all four components. What the guided filter's guide, Otsu's histogram and Canny's edges read.
///
/// ```swift
/// let grey = LuminanceImage.of(photo)
/// ```
enum LuminanceImage {
    static func of(_ input: Image, perceptual: Bool = false) -> Image {
        let curve = TransferFunction.sRGB
        return Image(
            PointwiseNode(
                name: perceptual ? "perceptualLuminance" : "luminance", inputs: [input.node], extent: input.extent,
                digest: { $0.add(perceptual ? 1 : 0) }
            ) { span in
                for i in 0..<span.count {
                    let l = SpanMath.colourLuminance(span.pixels[i])
                    span.pixels[i] = SIMD4(repeating: perceptual ? curve.encode(l) : l)
                }
            })
    }
}
