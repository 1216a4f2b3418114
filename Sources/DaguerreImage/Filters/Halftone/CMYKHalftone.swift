import DaguerreCore
import Foundation

/// A four-colour print (CICMYKHalftone, I4): the image separated into cyan, magenta, yellow and
/// black inks, each printed through a dot screen at its own angle, and the inks recombined on
/// white paper. Core Image does not publish its formula; the definition used, per pixel, on the
/// working space's unpremultiplied values clamped to [0, 1]:
/// - separation: C₀ = 1 − R, M₀ = 1 − G, Y₀ = 1 − B; black K = clamp(GCR · min(C₀, M₀, Y₀), 0, 1)
///   (gray-component replacement), and under-colour removal takes UCR · K out of each colour:
///   C = clamp(C₀ − UCR·K, 0, 1), likewise M and Y;
/// - screening: each ink is a round dot centred in each cell of a square screen (period
///   `width`, centred on `center`, turned by the angle plus 15° for cyan, 75° for magenta, 0°
///   for yellow and 45° for black, the classic screen angles), whose area is the ink's coverage
///   v: with (fu, fv) a pixel's offset from its cell's centre in cells (as HalftoneScreen
///   measures it) and A the area of the cell within the distance √(fu² + fv²) of its centre
///   (πρ² up to ρ = ½, less the four segments outside the cell beyond), the paper left is
///   clamp(½ + (A − t)/ε, 0, 1), with ε = min(max(1 − sharpness, 2/width), 1) the
///   anti-aliasing ramp and t the dot's edge: t = v for ε/2 ≤ v ≤ 1 − ε/2,
///   t = √(2εv) − ε/2 below, t = 1 + ε/2 − √(2ε(1 − v)) above. A being uniform over the cell,
///   this t makes the mean ink over a cell exactly v, none at v = 0 and all at v = 1: the print
///   keeps the image's tone (HalftoneScreen's threshold, 2ρ², would print up to π/2 times the
///   ink);
/// - recombination, subtractive: R = (1 − C′)(1 − K′), G = (1 − M′)(1 − K′), B = (1 − Y′)(1 − K′).
/// Alpha is kept. Core Image accepts widths down to −2; the screen's period is max(width, 1)
/// pixels. Point-wise: it fuses with the filters around it.
///
/// ```swift
/// let print = try photo.applying(CMYKHalftone(width: 8, angle: 0.2))
/// ```
public struct CMYKHalftone: Filter {
    public var inputImage: Image?
    public var center: [Double] = [150, 150]
    public var width: Double = 6
    public var angle: Double = 0
    public var sharpness: Double = 0.7
    public var gcr: Double = 1
    public var ucr: Double = 0.5

    public init() {}
    public init(
        inputImage: Image? = nil, center: [Double] = Self.defaults.center, width: Double = Self.defaults.width,
        angle: Double = Self.defaults.angle, sharpness: Double = Self.defaults.sharpness, gcr: Double = Self.defaults.gcr,
        ucr: Double = Self.defaults.ucr
    ) {
        self.inputImage = inputImage
        self.center = center
        self.width = width
        self.angle = angle
        self.sharpness = sharpness
        self.gcr = gcr
        self.ucr = ucr
    }

    /// The inks' screen angles relative to `angle`, in degrees: cyan, magenta, yellow, black.
    static let inkAngles: SIMD4<Double> = [15, 75, 0, 45]

    public static let declaration = FilterDeclaration<Self>(
        name: "CMYKHalftone", displayName: "CMYK Halftone", categories: [.halftoneEffect, .video, .stillImage, .builtIn],
        description: "Cyan, magenta, yellow and black dot screens at their own angles, recombined on white.",
        parameters: [
            .image(\.inputImage),
            .position(\.center, "inputCenter", "The screens' centre.", min: -1e9, max: 1e9),
            .scalar(
                \.width, "inputWidth", "The screens' period in pixels (at least 1 in effect).", min: -2, max: 1e9, sliderMin: 1,
                sliderMax: 50),
            .angle(
                \.angle, "inputAngle", "The screens' angle in radians (each ink adds its own).", min: -1e9, max: 1e9,
                sliderMin: -3.141592653589793, sliderMax: 3.141592653589793),
            .scalar(\.sharpness, "inputSharpness", "1: hard dot edges (anti-aliased); lower: softer.", min: 0, max: 1e6, sliderMax: 1),
            .scalar(
                \.gcr, "inputGCR", "Gray-component replacement: how much of the shared grey black ink prints.", min: 0, max: 1e6,
                sliderMax: 1),
            .scalar(
                \.ucr, "inputUCR", "Under-colour removal: how much of the black is taken out of the colours.", min: 0, max: 1e6,
                sliderMax: 1),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let (cx, cy, w) = (center[0], center[1], max(width, 1))
        let (gcr, ucr) = (Float(gcr), Float(ucr))
        let radians = (Self.inkAngles * (Double.pi / 180)) + angle
        let cosines = SIMD4(cos(radians[0]), cos(radians[1]), cos(radians[2]), cos(radians[3]))
        let sines = SIMD4(sin(radians[0]), sin(radians[1]), sin(radians[2]), sin(radians[3]))
        let eps = Float(min(max(1 - sharpness, 2 / w), 1))
        return Image(
            PointwiseNode(
                name: "cmykHalftone", inputs: [input.node], extent: input.extent,
                parameters: "centre \(cx),\(cy) angle \(angle) width \(w) sharpness \(sharpness) gcr \(gcr) ucr \(ucr)",
                digest: { d in d.add([cx, cy, angle, w, sharpness, Double(gcr), Double(ucr)]) }
            ) { span in
                let dy = Double(span.y) + 0.5 - cy
                let p = span.pixels
                let one = SIMD4<Float>(repeating: 1)
                for i in 0..<span.count {
                    let v = p[i]
                    let a = v.w
                    guard a > 0 else { continue }
                    let rgb = (SIMD3(v.x, v.y, v.z) / a).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                    let cmy0 = 1 - rgb
                    let k = min(max(gcr * cmy0.min(), 0), 1)
                    let cmy = (cmy0 - ucr * k).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                    let coverage = SIMD4(cmy.x, cmy.y, cmy.z, k)
                    let dx = Double(span.x + i) + 0.5 - cx
                    var area = SIMD4<Float>()
                    for j in 0..<4 { area[j] = Float(Self.dotArea(dx: dx, dy: dy, cosA: cosines[j], sinA: sines[j], width: w)) }
                    let edge = SIMD4(
                        Self.dotEdge(coverage.x, eps), Self.dotEdge(coverage.y, eps), Self.dotEdge(coverage.z, eps),
                        Self.dotEdge(coverage.w, eps))
                    let paper = (0.5 + (area - edge) / eps).clamped(lowerBound: .zero, upperBound: one)
                    // paper = 1 − ink printed: (1 − C′)(1 − K′) and so on.
                    p[i] = SIMD4(paper.x * paper.w * a, paper.y * paper.w * a, paper.z * paper.w * a, a)
                }
            })
    }

    /// The area, in cells, of the part of a screen cell nearer its centre than the pixel at
    /// (dx, dy) from the screen's centre: the coverage at which a round dot reaches the pixel.
    @inline(__always) static func dotArea(dx: Double, dy: Double, cosA: Double, sinA: Double, width: Double) -> Double {
        @inline(__always) func frac(_ t: Double) -> Double { t - t.rounded() }
        let fu = frac((dx * cosA + dy * sinA) / width)
        let fv = frac((-dx * sinA + dy * cosA) / width)
        let r2 = fu * fu + fv * fv
        guard r2 > 0.25 else { return Double.pi * r2 }
        // Less the four circular segments beyond the cell's edges, each at ½ from the centre.
        let r = r2.squareRoot()
        return min(Double.pi * r2 - 4 * (r2 * acos(0.5 / r) - 0.5 * (r2 - 0.25).squareRoot()), 1)
    }

    /// Where a dot of coverage `v` puts the middle of its ramp of width `eps` (in cell area),
    /// so that the mean ink over the cell is exactly `v`.
    @inline(__always) static func dotEdge(_ v: Float, _ eps: Float) -> Float {
        if v < eps / 2 { return (2 * eps * v).squareRoot() - eps / 2 }
        if v > 1 - eps / 2 { return 1 + eps / 2 - (2 * eps * (1 - v)).squareRoot() }
        return v
    }
}
