import DaguerreCore

/// Clamps each unpremultiplied component into [min, max] (CIColorClamp).
///
/// ```swift
/// let displayable = try image.applying(ColorClamp())   // [0, 1]
/// ```
public struct ColorClamp: Filter {
    public var inputImage: Image?
    public var minComponents: [Double] = [0, 0, 0, 0]
    public var maxComponents: [Double] = [1, 1, 1, 1]

    public init() {}
    public init(
        inputImage: Image? = nil, minComponents: [Double] = Self.defaults.minComponents,
        maxComponents: [Double] = Self.defaults.maxComponents
    ) {
        self.inputImage = inputImage
        self.minComponents = minComponents
        self.maxComponents = maxComponents
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ColorClamp", displayName: "Color Clamp", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Clamps RGBA components to a range.",
        parameters: [
            .image(\.inputImage),
            .vector(\.minComponents, "inputMinComponents", "Lower bounds of R, G, B, A.", count: 4),
            .vector(\.maxComponents, "inputMaxComponents", "Upper bounds of R, G, B, A.", count: 4),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let lo = minComponents
        let hi = maxComponents
        let l = SIMD4<Float>(lo.map(Float.init))
        let h = SIMD4<Float>(hi.map(Float.init))
        let top = pointwiseMax(l, h)
        return Image(
            PointwiseNode(
                name: "colorClamp", inputs: [input.node], extent: input.extent, parameters: "min \(l) max \(h)",
                planar: { s in
                    let r = s.r
                    let g = s.g
                    let b = s.b
                    let a = s.a
                    let lr = l.x
                    let lg = l.y
                    let lb = l.z
                    let la = l.w
                    let hr = top.x
                    let hg = top.y
                    let hb = top.z
                    let ha = top.w
                    // PlanarMath's max and min are one instruction each (the same results for numbers; a
                    // NaN component becomes the lower bound).
                    for i in 0..<s.count {
                        r[i] = PlanarMath.min(PlanarMath.max(r[i], lr), hr)
                        g[i] = PlanarMath.min(PlanarMath.max(g[i], lg), hg)
                        b[i] = PlanarMath.min(PlanarMath.max(b[i], lb), hb)
                        a[i] = PlanarMath.min(PlanarMath.max(a[i], la), ha)
                    }
                },
                digest: { d in
                    d.add(lo)
                    d.add(hi)
                }))
    }
}
