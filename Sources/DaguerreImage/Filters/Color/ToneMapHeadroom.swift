import DaguerreCore
import Foundation

/// Fits highlights that reach `sourceHeadroom` times SDR white into `targetHeadroom`
/// (CIToneMapHeadroom; SPEC I4), as for showing an HDR picture on a display with less headroom,
/// or on an SDR one at 1.
///
/// Core Image publishes no curve; this is a documented approximation, ITU-R BT.2390's EETF
/// (its highlight roll-off; no black lift): with SDR white at 203 cd/m² (BT.2408), the peak of
/// each pixel's colour, max(R, G, B) in linear light, is PQ-encoded (SMPTE ST 2084) and
/// normalized by the source peak's code, E₁; below the knee KS = 1.5·m − 0.5 (m: the target
/// peak's normalized code) it passes unchanged, above it a Hermite spline rolls it off to exactly
/// m at the source peak (E₁ ≥ 1 is taken as the peak). The pixel's R, G and B are scaled by the
/// same factor, so hue and saturation are kept. A target at or above the source changes nothing;
/// absent, the source is taken as the target (the image already fits).
///
/// ```swift
/// let onSDR = try hdrPhoto.applying(ToneMapHeadroom(sourceHeadroom: 4, targetHeadroom: 1))
/// ```
public struct ToneMapHeadroom: Filter {
    public var inputImage: Image?
    public var sourceHeadroom: Double?
    public var targetHeadroom: Double = 1

    public init() {}
    public init(inputImage: Image? = nil, sourceHeadroom: Double? = nil, targetHeadroom: Double = Self.defaults.targetHeadroom) {
        (self.inputImage, self.sourceHeadroom, self.targetHeadroom) = (inputImage, sourceHeadroom, targetHeadroom)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ToneMapHeadroom", displayName: "Tone Map Headroom", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Rolls off highlights from the source headroom into the target headroom (BT.2390's curve).",
        parameters: [
            .image(\.inputImage),
            .optionalNumber(
                \.sourceHeadroom, "inputSourceHeadroom", "The brightest the image gets, in multiples of SDR white (absent: the target).",
                min: 1, max: 32),
            .scalar(
                \.targetHeadroom, "inputTargetHeadroom", "The brightest the result may get, in multiples of SDR white.", min: 1, max: 32),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let source = sourceHeadroom ?? targetHeadroom
        guard targetHeadroom < source else { return input }
        let curve = HighlightRollOff(sourcePeak: source, targetPeak: targetHeadroom)
        return Image(
            PointwiseNode(
                name: "toneMapHeadroom", inputs: [input.node], extent: input.extent,
                parameters: "headroom \(source) → \(targetHeadroom)", digest: { d in d.add([source, targetHeadroom]) },
                span: { s in
                    for i in 0..<s.count { s.pixels[i] = curve.applyToPeak(s.pixels[i]) }
                }))
    }
}

/// BT.2390's EETF roll-off between two peaks given in multiples of SDR white, in PQ code values.
struct HighlightRollOff: Sendable {
    static let sdrWhite = 203.0
    let sourceCode: Double
    let targetCode: Double
    let knee: Double
    /// The knee in linear light: below it nothing changes, and no power is taken.
    let linearKnee: Double

    init(sourcePeak: Double, targetPeak: Double) {
        sourceCode = Self.pq(sourcePeak)
        targetCode = Self.pq(targetPeak) / sourceCode
        knee = 1.5 * targetCode - 0.5
        linearKnee = knee > 0 ? Self.linear(knee * sourceCode) : 0
    }

    /// `x` (linear, SDR white 1) rolled off; x at or beyond the source peak gives the target's.
    func apply(_ x: Double) -> Double {
        let e = min(1, Self.pq(x) / sourceCode)
        guard e > knee else { return x }
        let t = (e - knee) / (1 - knee)
        let (t2, t3) = (t * t, t * t * t)
        let rolled = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * targetCode
        return Self.linear(rolled * sourceCode)
    }

    /// A premultiplied pixel with its peak, max(R, G, B) in linear light, rolled off and R, G
    /// and B scaled alike.
    func applyToPeak(_ p: SIMD4<Float>) -> SIMD4<Float> {
        let a = p.w
        let peak = max(p.x, max(p.y, p.z))
        guard a > 0, peak > 0 else { return p }
        let linear = Double(peak / a)
        if linear <= linearKnee { return p }
        let f = Float(apply(linear) / linear)
        return SIMD4(p.x * f, p.y * f, p.z * f, a)
    }

    // SMPTE ST 2084's constants.
    static let (m1, m2) = (2610.0 / 16384, 2523.0 / 4096 * 128)
    static let (c1, c2, c3) = (3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32)

    /// The PQ code of `x` times SDR white.
    static func pq(_ x: Double) -> Double {
        let y = pow(max(0, x) * sdrWhite / 10_000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// The inverse of ``pq(_:)``.
    static func linear(_ e: Double) -> Double {
        let p = pow(max(0, e), 1 / m2)
        return pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1) * 10_000 / sdrWhite
    }
}
