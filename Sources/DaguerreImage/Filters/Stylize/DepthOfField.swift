import DaguerreCore

/// A tilt-shift miniature look (CIDepthOfField, I4): sharp along a line, blurred away from it.
/// Core Image describes the effect without a formula; the definition here, built from the
/// library's own filters: the image's saturation is set (ColorControls), giving S; the focused
/// image is UnsharpMask(S, σ = unsharp mask radius, intensity), the far image GaussianBlur of S
/// (σ = radius, edges repeated outward); each pixel mixes from focused to far by
/// w = clamp(d / b, 0, 1), d its centre's distance from the line through point0 and point1 and
/// b = |point1 − point0| / 2.
///
/// ```swift
/// let miniature = try image.applying(DepthOfField(point0: [0, 400], point1: [600, 400], radius: 8))
/// ```
public struct DepthOfField: Filter {
    public var inputImage: Image?
    public var point0: [Double] = [0, 300]
    public var point1: [Double] = [300, 300]
    public var saturation: Double = 1.5
    public var unsharpMaskRadius: Double = 2.5
    public var unsharpMaskIntensity: Double = 0.5
    public var radius: Double = 6

    public init() {}
    public init(
        inputImage: Image? = nil, point0: [Double] = Self.defaults.point0, point1: [Double] = Self.defaults.point1,
        saturation: Double = Self.defaults.saturation, unsharpMaskRadius: Double = Self.defaults.unsharpMaskRadius,
        unsharpMaskIntensity: Double = Self.defaults.unsharpMaskIntensity, radius: Double = Self.defaults.radius
    ) {
        self.inputImage = inputImage
        self.point0 = point0
        self.point1 = point1
        self.saturation = saturation
        self.unsharpMaskRadius = unsharpMaskRadius
        self.unsharpMaskIntensity = unsharpMaskIntensity
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DepthOfField", displayName: "Depth of Field", categories: [.stylize, .video, .stillImage, .builtIn],
        description: "Keeps a line in focus and blurs away from it, like a tilt-shift lens.",
        parameters: [
            .image(\.inputImage),
            .position(\.point0, "inputPoint0", "One point of the line in focus.", min: -1e6, max: 1e6),
            .position(\.point1, "inputPoint1", "Another point of the line in focus.", min: -1e6, max: 1e6),
            .scalar(\.saturation, "inputSaturation", "The saturation (1 unchanged).", min: 0, max: 100, sliderMax: 10),
            .scalar(\.unsharpMaskRadius, "inputUnsharpMaskRadius", "The sharpening's σ in pixels.", min: 0, max: 500, sliderMax: 10),
            .scalar(
                \.unsharpMaskIntensity, "inputUnsharpMaskIntensity", "How much the focus is sharpened.", min: 0, max: 100, sliderMax: 10),
            .scalar(\.radius, "inputRadius", "The blur's σ in pixels away from the line.", min: 0, max: 1000, sliderMax: 30),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let a = SIMD2(point0[0], point0[1])
        let b = SIMD2(point1[0], point1[1])
        let along = b - a
        let length = (along * along).sum().squareRoot()
        guard length > 0 else { throw Self.invalid(\.point1, "point0 and point1 must differ (they define the line in focus)") }
        let saturated = try ColorControls(inputImage: input, saturation: saturation).outputImage()
        let focused = try UnsharpMask(inputImage: saturated, radius: unsharpMaskRadius, intensity: unsharpMaskIntensity).outputImage()
        let far = try GaussianBlur(inputImage: saturated.clampedToExtent(), radius: radius).outputImage().cropped(to: input.extent)
        let normal = SIMD2<Float>(SIMD2(-along.y, along.x) / length)
        let origin = SIMD2<Float>(a)
        let band = Float(length / 2)
        return Image(
            PointwiseNode(
                name: "depthOfField", inputs: [focused.node, far.node], extent: input.extent, parameters: "line \(point0) \(point1)",
                digest: { d in d.add(point0 + point1) }
            ) { span in
                let p = span.pixels
                let f = span.input(1)
                let y = Float(span.y) + 0.5
                for i in 0..<span.count {
                    let d = abs(((SIMD2(Float(span.x + i) + 0.5, y) - origin) * normal).sum())
                    let w = min(d / band, 1)
                    p[i] += (f[i] - p[i]) * w
                }
            })
    }
}
