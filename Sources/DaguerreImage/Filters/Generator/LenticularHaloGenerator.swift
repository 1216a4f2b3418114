import DaguerreCore

/// A lens halo (CILenticularHaloGenerator, I4): a striated ring whose red, green and blue
/// layers sit at slightly different radii, as a lens's chromatic halo does; one colour on
/// transparency, infinite extent. Core Image publishes no formula; the definition used, with r
/// the distance of a pixel's centre from `center`, H the halo's radius, W its width and
/// δ = (1 − min(overlap, 1))·W/2 the spread between the layers:
/// - each layer k (red, green, blue) is a ring of radius H + δ, H and H − δ (red outermost):
///   p_k = max(0, 1 − ((r − R_k) / (W/2))²) (0 when W = 0);
/// - its striations: I_k = clamp(p_k · (1 − strength + strength · S), 0, 1), S the
///   ``Striation`` at the pixel's angle for the given contrast and time;
/// - the pixel is (c_r·I_r, c_g·I_g, c_b·I_b, c_a·max I_k), with c the colour premultiplied in
///   the working space.
///
/// ```swift
/// let halo = try LenticularHaloGenerator(center: [320, 200], haloRadius: 90).outputImage().composited(over: photo)
/// ```
public struct LenticularHaloGenerator: Filter {
    public var center: [Double] = [150, 150]
    public var color = Color(red: 1, green: 0.9, blue: 0.8, alpha: 1)
    public var haloRadius: Double = 70
    public var haloWidth: Double = 87
    public var haloOverlap: Double = 0.77
    public var striationStrength: Double = 0.5
    public var striationContrast: Double = 1
    public var time: Double = 0

    public init() {}
    public init(
        center: [Double] = Self.defaults.center, color: Color = Self.defaults.color, haloRadius: Double = Self.defaults.haloRadius,
        haloWidth: Double = Self.defaults.haloWidth, haloOverlap: Double = Self.defaults.haloOverlap,
        striationStrength: Double = Self.defaults.striationStrength, striationContrast: Double = Self.defaults.striationContrast,
        time: Double = Self.defaults.time
    ) {
        self.center = center
        self.color = color
        self.haloRadius = haloRadius
        self.haloWidth = haloWidth
        self.haloOverlap = haloOverlap
        self.striationStrength = striationStrength
        self.striationContrast = striationContrast
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "LenticularHaloGenerator", displayName: "Lenticular Halo", categories: [.generator, .video, .stillImage, .builtIn],
        description: "A striated halo ring with chromatic layers, as a lens makes, on transparency.",
        parameters: [
            .position(\.center, "inputCenter", "The halo's centre.", min: -1e9, max: 1e9),
            .color(\.color, "inputColor", "The halo's colour."),
            .scalar(\.haloRadius, "inputHaloRadius", "The ring's radius in pixels.", min: 0, max: 1e9, sliderMax: 1000),
            .scalar(\.haloWidth, "inputHaloWidth", "The ring's width in pixels.", min: 0, max: 1e9, sliderMax: 300),
            .scalar(
                \.haloOverlap, "inputHaloOverlap", "1: the colour layers coincide; lower: they spread apart.", min: 0, max: 1e6,
                sliderMax: 1),
            .scalar(
                \.striationStrength, "inputStriationStrength", "How much the striations darken the ring.", min: 0, max: 1e6, sliderMax: 3),
            .scalar(
                \.striationContrast, "inputStriationContrast", "How sharply the striations stand apart.", min: 0, max: 1e6, sliderMax: 5),
            .scalar(\.time, "inputTime", "Animates the striations; 0 and 1 are the same frame.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (cx, cy, c) = (center[0], center[1], color)
        let (radius, half, strength) = (haloRadius, haloWidth / 2, striationStrength)
        let spread = (1 - min(haloOverlap, 1)) * half
        let striation = Striation(contrast: striationContrast, time: time)
        return Image(
            GeneratorNode(
                name: "lenticularHalo", parameters: "centre \(cx),\(cy) radius \(radius) width \(haloWidth) spread \(spread)",
                digest: { d in
                    d.add([cx, cy, radius, half, spread, strength])
                    striation.addDigest(&d)
                    FilterValue.color(c).addDigest(&d)
                }
            ) { working in
                let v = c.premultiplied(in: working)
                return { span in
                    let dy = Double(span.y) + 0.5 - cy
                    for i in 0..<span.count {
                        let dx = Double(span.x + i) + 0.5 - cx
                        let r = (dx * dx + dy * dy).squareRoot()
                        guard half > 0, abs(r - radius) < half + spread else {
                            span.pixels[i] = .zero
                            continue
                        }
                        let s = 1 - strength + strength * striation.value(dx: dx, dy: dy)
                        let k =
                            SIMD3(Self.ring(r, radius + spread, half), Self.ring(r, radius, half), Self.ring(r, radius - spread, half)) * s
                        let layers = SIMD3<Float>(k.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
                        span.pixels[i] = SIMD4(v.x * layers.x, v.y * layers.y, v.z * layers.z, v.w * layers.max())
                    }
                }
            })
    }

    /// A layer's ring profile at distance `r`: a parabola of half-width `half` around `at`.
    @inline(__always) static func ring(_ r: Double, _ at: Double, _ half: Double) -> Double {
        let t = (r - at) / half
        return max(0, 1 - t * t)
    }
}
