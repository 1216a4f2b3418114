import DaguerreCore

/// A lens's out-of-focus blur (CIBokehBlur; SPEC I4): the image convolved, on premultiplied linear
/// light (so highlights bloom into discs), with the aperture's shape: at distance ρ from the
/// centre, disc(ρ) = clamp((r − ρ)/s + ½, 0, 1) for r = `radius` and s = `softness` (0: a hard
/// edge), plus a bright rim, `ringAmount`·disc(ρ)·clamp((ρ − r(1 − `ringSize`))/s + ½, 0, 1),
/// the weights normalised to sum 1. Pixels outside the image count as transparent, as with
/// ``DiscBlur``; the extent grows by the kernel's reach. Each output pixel reads every tap of the
/// kernel (about π·r² of them). Core Image publishes no formula; this is the definition used.
///
/// ```swift
/// let background = try photo.applying(BokehBlur(radius: 12, ringAmount: 0.3))
/// ```
public struct BokehBlur: Filter {
    public var inputImage: Image?
    public var radius: Double = 20
    public var ringAmount: Double = 0
    public var ringSize: Double = 0.1
    public var softness: Double = 1

    public init() {}
    public init(
        inputImage: Image? = nil, radius: Double = Self.defaults.radius, ringAmount: Double = Self.defaults.ringAmount,
        ringSize: Double = Self.defaults.ringSize, softness: Double = Self.defaults.softness
    ) {
        self.inputImage = inputImage
        self.radius = radius
        self.ringAmount = ringAmount
        self.ringSize = ringSize
        self.softness = softness
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "BokehBlur", displayName: "Bokeh Blur", categories: [.blur, .video, .stillImage, .builtIn],
        description: "Blurs as an out-of-focus lens does: a soft-edged disc with an optional bright rim.",
        parameters: [
            .image(\.inputImage),
            .scalar(\.radius, "inputRadius", "The aperture's radius in pixels.", min: 0, max: 500, sliderMax: 100),
            .scalar(\.ringAmount, "inputRingAmount", "How bright the rim is.", min: 0, max: 1),
            .scalar(\.ringSize, "inputRingSize", "The rim's width, as a fraction of the radius.", min: 0, max: 0.2),
            .scalar(\.softness, "inputSoftness", "The edge's softness in pixels.", min: 0, max: 10),
        ])

    /// The kernel's taps, (dx, dy, weight), weights summing to 1.
    static func taps(radius r: Double, ringAmount: Double, ringSize: Double, softness: Double) -> [(Int, Int, Float)] {
        let s = max(softness, 1e-9)
        let reach = Int((r + s / 2).rounded(.up))
        var taps: [(Int, Int, Double)] = []
        for dy in -reach...reach {
            for dx in -reach...reach {
                let rho = Double(dx * dx + dy * dy).squareRoot()
                let disc = min(max((r - rho) / s + 0.5, 0), 1)
                let rim = min(max((rho - r * (1 - ringSize)) / s + 0.5, 0), 1)
                let w = disc * (1 + ringAmount * rim)
                if w > 0 { taps.append((dx, dy, w)) }
            }
        }
        let sum = taps.reduce(0) { $0 + $1.2 }
        return taps.map { ($0.0, $0.1, Float($0.2 / sum)) }
    }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        if radius < 0.5 { return input }
        let taps = Self.taps(radius: radius, ringAmount: ringAmount, ringSize: ringSize, softness: softness)
        let reach = Double(taps.map { max(abs($0.0), abs($0.1)) }.max() ?? 0)
        let numbers = [radius, ringAmount, ringSize, softness]
        let node = SamplingNode(
            name: "bokehBlur", inputs: [input.node], extent: input.extent.insetBy(dx: -reach, dy: -reach),
            parameters: numbers.map { "\($0)" }.joined(separator: " "), outputFormat: nil, digest: { d in d.add(numbers) },
            roi: { _, rect in rect.insetBy(dx: -reach, dy: -reach) }
        ) { s, p in
            let x = Int(p.x.rounded(.down))
            let y = Int(p.y.rounded(.down))
            var acc = SIMD4<Float>()
            for (dx, dy, w) in taps { acc += s[0].read(x: x + dx, y: y + dy) * w }
            return acc
        }
        return Image(node)
    }
}
