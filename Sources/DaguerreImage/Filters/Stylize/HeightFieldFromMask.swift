import DaguerreCore

/// A smooth height field from a mask (CIHeightFieldFromMask, I4): 0 outside the mask and at its
/// edge, rising smoothly to 1 inside. Core Image publishes no formula; the definition here, with
/// m the mask's Rec. 709 luminance and G a Gaussian blur of σ = radius (edges repeated outward):
/// h = clamp(2·G(m) − 1, 0, 1), as an opaque grey image. Feed it to ShadedMaterial.
///
/// ```swift
/// let height = try textMask.applying(HeightFieldFromMask(radius: 8))
/// ```
public struct HeightFieldFromMask: Filter {
    public var inputImage: Image?
    public var radius: Double = 10

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "HeightFieldFromMask", displayName: "Height Field From Mask", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "A smooth height field, 0 at the mask's edge and rising inside it.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The mask: white inside, black outside."),
            .scalar(\.radius, "inputRadius", "How far inside the field rises, as a blur σ in pixels.", min: 0, max: 1000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = radius
        let luminance = PointwiseNode(name: "luminance", inputs: [input.node], extent: input.extent, digest: { _ in }) { span in
            for i in 0..<span.count { span.pixels[i] = SIMD4(repeating: SpanMath.luminance(span.pixels[i])) }
        }
        var smooth: ImageNode = luminance
        if r > 0 {
            let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
            smooth = SeparableConvolutionNode(
                input: Image(luminance).clampedToExtent().node, name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w)
        }
        return Image(
            PointwiseNode(name: "heightField", inputs: [smooth], extent: input.extent, parameters: "radius \(r)", digest: { d in d.add(r) })
            {
                span in
                for i in 0..<span.count {
                    let h = min(max(2 * span.pixels[i].x - 1, 0), 1)
                    span.pixels[i] = SIMD4(h, h, h, 1)
                }
            })
    }
}
