import DaguerreCore

/// What Bloom and Gloom share (I4): a Gaussian blur of the input (σ = radius, edges repeated
/// outward, as GaussianBlur on a clamped image) and a mix towards it by the intensity. Core
/// Image publishes no formula; the definition here, per premultiplied component:
/// Bloom = in + intensity·(max(in, blur) − in) (light spreads into darker surroundings, never
/// darkening), Gloom = in + intensity·(min(in, blur) − in) (dark spreads, dulling highlights).
protocol GlowFilter: Filter {
    var inputImage: Image? { get set }
    var radius: Double { get set }
    var intensity: Double { get set }
    /// True for Bloom (max), false for Gloom (min).
    static var brightens: Bool { get }
}

extension GlowFilter {
    static var commonParameters: [FilterDeclaration<Self>.Parameter] {
        [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The blur's standard deviation in pixels.", min: 0, max: 1000, sliderMax: 100),
            .scalar(\.intensity, "inputIntensity", "How far to mix towards the glow (0…1).", min: 0, sliderMax: 1),
        ]
    }

    func glow() throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let r = radius
        let k = Float(intensity)
        if r == 0 || k == 0 { return input }
        let w = SeparableConvolutionNode.gaussianWeights(sigma: r)
        let blur = SeparableConvolutionNode(
            input: input.clampedToExtent().node, name: "gaussianBlur", parameters: "σ \(r)", horizontal: w, vertical: w)
        let up = Self.brightens
        return Image(
            PointwiseNode(
                name: up ? "bloom" : "gloom", inputs: [input.node, blur], extent: input.extent, parameters: "radius \(r) intensity \(k)",
                digest: { d in
                    d.add(r)
                    d.add(k)
                    d.add(up)
                }
            ) { span in
                let p = span.pixels
                let b = span.input(1)
                for i in 0..<span.count {
                    let target = up ? pointwiseMax(p[i], b[i]) : pointwiseMin(p[i], b[i])
                    p[i] += (target - p[i]) * k
                }
            })
    }
}
