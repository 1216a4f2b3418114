import DaguerreCore

/// Darkens the edges of the image (CIVignette). Core Image does not publish its formula; this
/// uses a documented approximation (I4): with d the distance of a pixel's centre from the
/// centre of the image's extent divided by half the extent's diagonal (0 at the centre, 1 at
/// the corners), and s = smoothstep(0, 1, d / radius), every premultiplied channel but alpha is
/// multiplied by 1 − intensity·s², so intensity 1 blackens the corners at radius 1, a larger
/// radius reaches less far in, and a negative intensity brightens. On the working space's
/// linear values. The image must have a finite extent.
///
/// ```swift
/// let framed = try photo.applying(Vignette(intensity: 0.8, radius: 1.2))
/// ```
public struct Vignette: Filter {
    public var inputImage: Image?
    public var intensity: Double = 0
    public var radius: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, intensity: Double = Self.defaults.intensity, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.intensity = intensity
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Vignette", displayName: "Vignette", categories: [.colorEffect, .video, .stillImage, .builtIn],
        description: "Darkens (or with a negative intensity brightens) the image towards its corners.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.intensity, "inputIntensity", "How much the corners darken (−1 brightens, 1 blackens).", min: -1, max: 1),
            .scalar(\.radius, "inputRadius", "How far the darkening reaches, relative to half the diagonal.", min: 0, max: 2),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if intensity == 0 { return input }
        let e = input.extent
        guard !e.isInfinite else {
            throw Self.invalid(\.inputImage, "the image has an infinite extent; crop it first (cropped(to:))")
        }
        let cx = Float(e.midX)
        let cy = Float(e.midY)
        let halfDiagonal = Float(max(1e-9, (e.width * e.width + e.height * e.height).squareRoot() / 2))
        let k = Float(intensity)
        let r = Float(radius)
        let (intensity, radius) = (self.intensity, self.radius)
        return Image(
            PointwiseNode(
                name: "vignette", inputs: [input.node], extent: e, parameters: "intensity \(intensity) radius \(radius)",
                digest: { $0.add([intensity, radius]) }
            ) { span in
                let p = span.pixels
                let dy = Float(span.y) + 0.5 - cy
                for i in 0..<span.count {
                    let dx = Float(span.x + i) + 0.5 - cx
                    let d = (dx * dx + dy * dy).squareRoot() / halfDiagonal
                    let x = r > 0 ? min(d / r, 1) : (d > 0 ? 1 : 0)
                    let s = x * x * (3 - 2 * x)
                    let m = 1 - k * s * s
                    p[i] = SIMD4(p[i].x * m, p[i].y * m, p[i].z * m, p[i].w)
                }
            })
    }
}
