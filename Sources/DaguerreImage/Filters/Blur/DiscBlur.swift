import DaguerreCore

/// The mean over a disc (CIDiscBlur, I4): every pixel whose offset (dx, dy) from the centre
/// has dx² + dy² ≤ radius², with equal weights (the disc of scikit-image's
/// `morphology.disk`). Pixels outside the image count as transparent, so edges fade, as with
/// GaussianBlur; the extent grows by the radius.
///
/// ```swift
/// let bokeh = try image.applying(DiscBlur(radius: 6))
/// ```
public struct DiscBlur: Filter {
    public var inputImage: Image?
    public var radius: Double = 8

    public init() {}
    public init(inputImage: Image? = nil, radius: Double = Self.defaults.radius) {
        self.inputImage = inputImage
        self.radius = radius
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "DiscBlur", displayName: "Disc Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Averages a disc around each pixel.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The disc's radius in pixels.", min: 0, max: 1000, sliderMax: 100),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let rr = radius
        let r = Int(rr.rounded(.down))
        if r == 0 { return input }
        var taps: [(Int, Int)] = []
        for dy in -r...r { for dx in -r...r where Double(dx * dx + dy * dy) <= rr * rr { taps.append((dx, dy)) } }
        let offsets = taps
        let scale = SIMD4<Float>(repeating: 1 / Float(taps.count))
        let node = SamplingNode(
            name: "discBlur", inputs: [input.node], extent: input.extent.insetBy(dx: -Double(r), dy: -Double(r)),
            parameters: "radius \(rr)", outputFormat: nil, digest: { d in d.add(rr) },
            roi: { _, rect in rect.insetBy(dx: -Double(r), dy: -Double(r)) }
        ) { s, p in
            let x = Int(p.x.rounded(.down))
            let y = Int(p.y.rounded(.down))
            var acc = SIMD4<Float>()
            for (dx, dy) in offsets { acc += s[0].read(x: x + dx, y: y + dy) }
            return acc * scale
        }
        return Image(node)
    }
}
