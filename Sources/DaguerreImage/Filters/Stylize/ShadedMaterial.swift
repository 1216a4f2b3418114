import DaguerreCore

/// Shades a height field with an environment picture (CIShadedMaterial, I4), typically a lit
/// sphere: Core Image publishes no formula; the definition here, with h the input's Rec. 709
/// luminance, its central differences ∂h/∂x, ∂h/∂y (edges repeated outward) and the surface
/// normal n = normalize(−scale·∂h/∂x, −scale·∂h/∂y, 1), each pixel takes the shading image's
/// colour (bilinear, clamped inside it) at its centre + (n_x·width/2, n_y·height/2), as a
/// sphere map. The shading image is read whole for every tile, so keep it small.
///
/// ```swift
/// let embossed = try textMask.applying(HeightFieldFromMask()).applying(ShadedMaterial(shadingImage: sphere))
/// ```
public struct ShadedMaterial: Filter {
    public var inputImage: Image?
    public var shadingImage: Image?
    public var scale: Double = 10

    public init() {}
    public init(inputImage: Image? = nil, shadingImage: Image? = nil, scale: Double = Self.defaults.scale) {
        self.inputImage = inputImage
        self.shadingImage = shadingImage
        self.scale = scale
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ShadedMaterial", displayName: "Shaded Material", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Shades a height field with a picture of a lit sphere.",
        parameters: [
            .image(\.inputImage, FilterParameter.inputImageKey, "The height field (its luminance)."),
            .image(\.shadingImage, "inputShadingImage", "The shading: a lit sphere filling its extent."),
            .scalar(\.scale, "inputScale", "How steep the heights are.", min: 0, sliderMax: 200),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let shading = try required(\.shadingImage)
        let e = shading.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw Self.invalid(\.shadingImage, "the shading image needs a finite, non-empty extent (crop it first)")
        }
        let k = Float(scale)
        let centre = SIMD2(Float(e.midX), Float(e.midY))
        let half = SIMD2(Float(e.width / 2), Float(e.height / 2))
        let lo = SIMD2(Float(e.minX + 0.5), Float(e.minY + 0.5))
        let hi = SIMD2(Float(e.maxX - 0.5), Float(e.maxY - 0.5))
        let node = SamplingNode(
            name: "shadedMaterial", inputs: [input.clampedToExtent().node, shading.node], extent: input.extent,
            parameters: "scale \(scale)", outputFormat: nil, digest: { d in d.add(scale) },
            roi: { i, rect in i == 0 ? rect.insetBy(dx: -1, dy: -1) : e }
        ) { s, p in
            let x = Int(p.x.rounded(.down))
            let y = Int(p.y.rounded(.down))
            func h(_ x: Int, _ y: Int) -> Float { SpanMath.luminance(s[0].read(x: x, y: y)) }
            let dx = (h(x + 1, y) - h(x - 1, y)) / 2
            let dy = (h(x, y + 1) - h(x, y - 1)) / 2
            let n = SIMD3(-k * dx, -k * dy, 1)
            let unit = n / (n * n).sum().squareRoot()
            let q = pointwiseMin(pointwiseMax(centre + SIMD2(unit.x, unit.y) * half, lo), hi)
            return s[1].sample(q)
        }
        return Image(node)
    }
}
