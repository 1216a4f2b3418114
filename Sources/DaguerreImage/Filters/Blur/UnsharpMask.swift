import DaguerreCore

/// Unsharp mask (CIUnsharpMask): `s + intensity·(s − blur(s))`, with a Gaussian of σ = radius.
/// Edges are replicated for the blur, so borders do not halo.
///
/// ```swift
/// let crisp = try image.applying(UnsharpMask(radius: 2.5, intensity: 0.5))
/// ```
public struct UnsharpMask: Filter {
    public var inputImage: Image?
    public var radius: Double, intensity: Double
    public init(inputImage: Image? = nil, radius: Double = 2.5, intensity: Double = 0.5) {
        self.inputImage = inputImage; self.radius = radius; self.intensity = intensity
    }
    public var values: [String: FilterValue] { filterValues(["inputRadius": .number(radius), "inputIntensity": .number(intensity)], inputImage: inputImage) }
    public static let descriptor = FilterDescriptor(
        name: "UnsharpMask", displayName: "Unsharp Mask",
        categories: [FilterCategory.sharpen, FilterCategory.video, FilterCategory.stillImage, FilterCategory.builtIn],
        description: "Adds back the difference between the image and a blur of it.",
        parameters: [CommonParameters.inputImage,
                     FilterParameter(key: "inputRadius", kind: .scalar, description: "Blur σ in pixels.", default: 2.5, min: 0, max: 500, sliderMax: 100),
                     FilterParameter(key: "inputIntensity", kind: .scalar, description: "How much detail to add.", default: 0.5, min: 0, max: 100, sliderMax: 1)]
    ) { a throws(DaguerreError) in
        let input = try a.image("inputImage"), r = a.number("inputRadius"), k = Float(a.number("inputIntensity"))
        if r == 0 || k == 0 { return input }
        let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
        let blur = SeparableConvolutionNode(input: ClampNode(input: input.node), name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w)
        return Image(PointwiseNode(name: "unsharpMask", inputs: [input.node, blur], extent: input.extent, parameters: "radius \(r) intensity \(k)",
                                   digest: { d in d.add(r); d.add(k) }) { span in
            let p = span.pixels, b = span.input(1)
            for i in 0..<span.count { var o = p[i] + (p[i] - b[i]) * k; o.w = p[i].w; p[i] = o }
        })
    }
}
