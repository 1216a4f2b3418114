import DaguerreCore

/// A sun with rays (CISunbeamsGenerator, I4): a glowing disc with striated rays around it, in
/// one colour on transparency; infinite extent. Core Image publishes no formula; the definition
/// used, with r the distance of a pixel's centre from `center`, R the sun's radius, ρ = r/R and
/// M the striations' reach in sun radii:
/// - disc = clamp(R + ½ − r, 0, 1) (the disc, its edge anti-aliased over a pixel);
/// - glow = ½ / max(ρ, 1)² (a halo falling off as 1/r² outside the disc);
/// - rays = strength · S · clamp(1 − (ρ − 1)/(M − 1), 0, 1), with S the ``Striation`` at the
///   pixel's angle for the given contrast and time (no rays when M ≤ 1);
/// - I = clamp(disc + glow + rays, 0, 1) (I = disc when R = 0), and the pixel is the colour
///   (premultiplied, in the working space) times I.
///
/// ```swift
/// let sun = try SunbeamsGenerator(center: [200, 120], sunRadius: 30).outputImage().composited(over: photo)
/// ```
public struct SunbeamsGenerator: Filter {
    public var center: [Double] = [150, 150]
    public var color = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
    public var sunRadius: Double = 40
    public var maxStriationRadius: Double = 2.58
    public var striationStrength: Double = 0.5
    public var striationContrast: Double = 1.375
    public var time: Double = 0

    public init() {}
    public init(
        center: [Double] = Self.defaults.center, color: Color = Self.defaults.color, sunRadius: Double = Self.defaults.sunRadius,
        maxStriationRadius: Double = Self.defaults.maxStriationRadius, striationStrength: Double = Self.defaults.striationStrength,
        striationContrast: Double = Self.defaults.striationContrast, time: Double = Self.defaults.time
    ) {
        self.center = center
        self.color = color
        self.sunRadius = sunRadius
        self.maxStriationRadius = maxStriationRadius
        self.striationStrength = striationStrength
        self.striationContrast = striationContrast
        self.time = time
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "SunbeamsGenerator", displayName: "Sunbeams", categories: [.generator, .video, .stillImage, .builtIn],
        description: "A glowing sun disc with striated rays, on transparency.",
        parameters: [
            .position(\.center, "inputCenter", "The sun's centre.", min: -1e9, max: 1e9),
            .color(\.color, "inputColor", "The sun's colour."),
            .scalar(\.sunRadius, "inputSunRadius", "The disc's radius in pixels.", min: 0, max: 1e9, sliderMax: 800),
            .scalar(
                \.maxStriationRadius, "inputMaxStriationRadius", "How far the rays reach, in sun radii.", min: 0, max: 1e6, sliderMax: 10),
            .scalar(\.striationStrength, "inputStriationStrength", "The rays' brightness.", min: 0, max: 1e6, sliderMax: 3),
            .scalar(\.striationContrast, "inputStriationContrast", "How sharply the rays stand apart.", min: 0, max: 1e6, sliderMax: 5),
            .scalar(\.time, "inputTime", "Animates the rays; 0 and 1 are the same frame.", min: 0, max: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let (cx, cy, c) = (center[0], center[1], color)
        let (radius, reach, strength) = (sunRadius, maxStriationRadius, striationStrength)
        let rays = Striation(contrast: striationContrast, time: time)
        return Image(
            GeneratorNode(
                name: "sunbeams", parameters: "centre \(cx),\(cy) radius \(radius) reach \(reach) strength \(strength)",
                digest: { d in
                    d.add([cx, cy, radius, reach, strength])
                    rays.addDigest(&d)
                    FilterValue.color(c).addDigest(&d)
                }
            ) { working in
                let v = c.premultiplied(in: working)
                return { span in
                    let dy = Double(span.y) + 0.5 - cy
                    for i in 0..<span.count {
                        let dx = Double(span.x + i) + 0.5 - cx
                        let r = (dx * dx + dy * dy).squareRoot()
                        var intensity = min(max(radius + 0.5 - r, 0), 1)
                        if radius > 0 {
                            let rho = r / radius
                            let glow = 0.5 / (max(rho, 1) * max(rho, 1))
                            let fall = reach > 1 ? min(max(1 - (rho - 1) / (reach - 1), 0), 1) : 0
                            let beams = fall > 0 ? strength * rays.value(dx: dx, dy: dy) * fall : 0
                            intensity = min(intensity + glow + beams, 1)
                        }
                        span.pixels[i] = v * Float(intensity)
                    }
                }
            })
    }
}
