import DaguerreCore

/// Darkens the image outside a circle (CIVignetteEffect). Core Image does not publish its
/// formula; this uses a documented approximation (I4): with d a pixel centre's distance from
/// `center`, t = smoothstep(radius·(1 − falloff), radius, d) (a hard edge at `radius` when
/// falloff is 0), every premultiplied channel but alpha is multiplied by 1 − intensity·t: inside
/// the inner circle unchanged, beyond `radius` darkened by `intensity` (a negative one
/// brightens). On the working space's linear values.
///
/// ```swift
/// let spot = try photo.applying(VignetteEffect(center: [384, 256], radius: 200, intensity: 0.9, falloff: 0.6))
/// ```
public struct VignetteEffect: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var radius: Double = 150
    public var intensity: Double = 1
    public var falloff: Double = 0.5

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, radius: Double = Self.defaults.radius,
        intensity: Double = Self.defaults.intensity, falloff: Double = Self.defaults.falloff
    ) {
        self.inputImage = inputImage
        self.center = center
        self.radius = radius
        self.intensity = intensity
        self.falloff = falloff
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "VignetteEffect", displayName: "Vignette Effect", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Darkens the image outside a circle, fading in over the falloff.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "The circle's centre.", min: -1e9, max: 1e9),
            .scalar(\.radius, "inputRadius", "The circle's radius in pixels.", min: 0, max: 1e9, sliderMax: 2000),
            .scalar(\.intensity, "inputIntensity", "How much the outside darkens (−1 brightens, 1 blackens).", min: -1, max: 1),
            .scalar(\.falloff, "inputFalloff", "The fraction of the radius over which the darkening fades in.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if intensity == 0 { return input }
        let cx = Float(center[0])
        let cy = Float(center[1])
        let outer = Float(radius)
        let inner = Float(radius * (1 - falloff))
        let k = Float(intensity)
        let values = [center[0], center[1], radius, intensity, falloff]
        return Image(
            PointwiseNode(
                name: "vignetteEffect", inputs: [input.node], extent: input.extent, parameters: "\(values)",
                digest: { $0.add(values) }
            ) { span in
                let p = span.pixels
                let dy = Float(span.y) + 0.5 - cy
                for i in 0..<span.count {
                    let dx = Float(span.x + i) + 0.5 - cx
                    let d = (dx * dx + dy * dy).squareRoot()
                    let t: Float
                    if outer > inner {
                        let x = min(max((d - inner) / (outer - inner), 0), 1)
                        t = x * x * (3 - 2 * x)
                    } else {
                        t = d >= outer ? 1 : 0
                    }
                    let m = 1 - k * t
                    p[i] = SIMD4(p[i].x * m, p[i].y * m, p[i].z * m, p[i].w)
                }
            })
    }
}
