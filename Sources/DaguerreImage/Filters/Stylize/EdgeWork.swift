import DaguerreCore

/// A black-and-white rendition like a woodblock cut (CIEdgeWork, I4). Core Image publishes no
/// formula; the definition here, with L the Rec. 709 luminance and G a Gaussian blur of
/// σ = radius (edges repeated outward): white where a pixel is no darker than its surroundings,
/// black where it is 0.02 or more darker, linear between — v = clamp(1 + (L − G(L))/0.02, 0, 1),
/// as an opaque grey image.
///
/// ```swift
/// let cut = try image.applying(EdgeWork(radius: 3))
/// ```
public struct EdgeWork: Filter {
    public var inputImage: Image?
    public var radius: Double = 3

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "EdgeWork", displayName: "Edge Work", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Black where the image is darker than its surroundings, white elsewhere.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The surroundings' blur σ in pixels.", min: 0, max: 1000, sliderMax: 20),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = radius
        let luminance = PointwiseNode(name: "luminance", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
            for i in 0..<span.count { span.pixels[i] = SIMD4(repeating: SpanMath.luminance(span.pixels[i])) }
        }
        var around: ImageNode = luminance
        if r > 0 {
            let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
            around = SeparableConvolutionNode(
                input: Image(luminance).clampedToExtent().node, name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w)
        }
        return Image(
            PointwiseNode(
                name: "edgeWork", inputs: [luminance, around], extent: input.extent, parameters: "radius \(r)", digest: { d in d.add(r) }
            ) {
                span in
                let g = span.input(1)
                for i in 0..<span.count {
                    let v = min(max(1 + (span.pixels[i].x - g[i].x) / 0.02, 0), 1)
                    span.pixels[i] = SIMD4(v, v, v, 1)
                }
            })
    }
}
