import DaguerreCore

/// Unsharp mask (CIUnsharpMask): `s + intensity·(s − blur(s))`, with a Gaussian of σ = radius.
/// Edges are replicated for the blur, so borders do not halo.
///
/// ```swift
/// let crisp = try image.applying(UnsharpMask(radius: 2.5, intensity: 0.5))
/// ```
public struct UnsharpMask: Filter {
    public var inputImage: Image?
    public var radius: Double = 2.5
    public var intensity: Double = 0.5

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius, intensity: Double = Self.defaults.intensity) {
        self.inputImage = inputImage
        self.radius = radius
        self.intensity = intensity
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "UnsharpMask", displayName: "Unsharp Mask", categories: [.sharpen, .video, .stillImage, .builtIn],
        description: "Adds back the difference between the image and a blur of it.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "Blur σ in pixels.", min: 0, max: 500, sliderMax: 100),
            .scalar(\.intensity, "inputIntensity", "How much detail to add.", min: 0, max: 100, sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = radius
        let k = Float(intensity)
        if r == 0 || k == 0 { return input }
        let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
        let blur = SeparableConvolutionNode(
            input: ClampNode(input: input.node), name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w)
        return Image(
            PointwiseNode(
                name: "unsharpMask", inputs: [input.node, blur], extent: input.extent, parameters: "radius \(r) intensity \(k)",
                digest: { d in
                    d.add(r)
                    d.add(k)
                }
            ) { span in
                let p = span.pixels
                let b = span.input(1)
                for i in 0..<span.count {
                    var o = p[i] + (p[i] - b[i]) * k
                    o.w = p[i].w
                    p[i] = o
                }
            })
    }
}
