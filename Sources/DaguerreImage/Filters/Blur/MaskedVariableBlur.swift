import DaguerreCore
import Foundation

/// A blur whose strength a mask sets pixel by pixel (CIMaskedVariableBlur, I4): at each pixel a
/// Gaussian of σ = radius × the mask's Rec. 709 luminance there (clamped to 0…1), truncated at
/// ⌈3σ⌉ pixels and normalised; where σ < 0.05 the pixel is kept. Edge pixels repeat outward;
/// outside its extent the mask is 0. Core Image publishes no formula (it blends precomputed
/// blurs); this computes each pixel's own Gaussian.
///
/// ```swift
/// let tiltShift = try image.applying(MaskedVariableBlur(mask: gradientMask, radius: 8))
/// ```
public struct MaskedVariableBlur: Filter {
    public var inputImage: Image?
    public var mask: Image?
    public var radius: Double = 5

    public init() {}
    public init(inputImage: Image? = nil, mask: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.mask = mask
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "MaskedVariableBlur", displayName: "Masked Variable Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Blurs each pixel as much as the mask is bright there.",
        parameters: [
            .image(\.inputImage),
            .image(\.mask, "inputMask", "White blurs by the full radius, black not at all."),
            .scalar(\.radius, "inputRadius", "The σ in pixels where the mask is white.", min: 0, max: 100, sliderMax: 20),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let maskImage = try required(\.mask)
        let r = radius
        if r == 0 { return input }
        let reach = Int((3 * r).rounded(.up))
        let node = SamplingNode(
            name: "maskedVariableBlur", inputs: [input.clampedToExtent().node, maskImage.node], extent: input.extent,
            parameters: "radius \(r)", outputFormat: nil, digest: { d in d.add(r) },
            roi: { i, rect in i == 0 ? rect.insetBy(dx: -Double(reach), dy: -Double(reach)) : rect }
        ) { s, p in
            let x = Int(p.x.rounded(.down))
            let y = Int(p.y.rounded(.down))
            let m = min(max(SpanMath.luminance(s[1].read(x: x, y: y)), 0), 1)
            let sigma = Float(r) * m
            if sigma < 0.05 { return s[0].read(x: x, y: y) }
            let n = min(Int((3 * sigma).rounded(.up)), reach)
            let k = -1 / (2 * sigma * sigma)
            var acc = SIMD4<Float>()
            var total: Float = 0
            for dy in -n...n {
                for dx in -n...n {
                    let w = expf(Float(dx * dx + dy * dy) * k)
                    acc.addProduct(s[0].read(x: x + dx, y: y + dy), SIMD4(repeating: w))
                    total += w
                }
            }
            return acc / total
        }
        return Image(node)
    }
}
