// Core Image's three fine controls of raw noise reduction (SPEC X1: CIRAWFilter's
// noiseReductionDetailAmount, noiseReductionContrastAmount and noiseReductionSharpnessAmount;
// X3). DCT4-2S has one constant that the photographer may want to bend: the noise it assumes,
// which is the same for all 16 coefficients of a 4×4 block because the variance-stabilized
// noise is white. Detail and contrast lower it for a band of coefficients, so the pilot's hard
// threshold keeps more of that band and the Wiener stage shrinks it less: at the price of more
// noise in that band, weak texture (detail) or weak shading (contrast) survives. Sharpness is a
// separate stage after the demosaic (``NoiseReductionSharpening``). At 0, 0, 0 every scale is
// exactly 1, and DCT4-2S runs as specified, bit for bit. Our own code.
import DaguerreCore

/// The fine controls, each 0…1 (0, the default, is DCT4-2S as the noise research specified it).
///
/// - `detail` lowers the noise assumed for the fine coefficients (u + v ≥ 3 of the 4×4 DCT of a
///   CFA plane, where u and v count half-cycles across the block) to `1 − 0.5·detail` of the
///   profile's, in both stages: fine texture near the noise level is kept.
/// - `contrast` does the same for the coarse AC coefficients (1 ≤ u + v ≤ 2; the DC is the
///   local mean and is never thresholded): low-contrast shading and soft gradients are kept.
/// - `sharpness` restores edges that noise reduction softened (``NoiseReductionSharpening``).
///
/// ```swift
/// let controls = try NoiseReductionControls(sharpness: 0, contrast: 0.3, detail: 0.6)
/// controls.coefficientNoiseScales[4 * 3 + 3]   // 0.7: the finest coefficient's assumed σ
/// ```
struct NoiseReductionControls: Sendable, Hashable {
    var sharpness = 0.0, contrast = 0.0, detail = 0.0

    /// The factor on the assumed noise σ of a controlled band at amount 1.
    static let strongest = 0.5

    init() {}

    /// Validated controls: each must be a finite number in 0…1 (X1: Core Image's range).
    init(sharpness: Double, contrast: Double, detail: Double) throws(DaguerreError) {
        for (name, value) in [
            ("noiseReductionSharpnessAmount", sharpness), ("noiseReductionContrastAmount", contrast),
            ("noiseReductionDetailAmount", detail),
        ] {
            guard value.isFinite, (0...1).contains(value) else {
                throw .invalidArgument(what: "RAWFilter.\(name) \(value)", problem: "must be a finite number between 0 and 1")
            }
        }
        self.sharpness = sharpness
        self.contrast = contrast
        self.detail = detail
    }

    /// True at 0, 0, 0: DCT4-2S exactly as specified, and no sharpening stage.
    var isNeutral: Bool { sharpness == 0 && contrast == 0 && detail == 0 }

    /// True for the coefficients `detail` controls (index 4u + v, u + v ≥ 3).
    static func isFine(_ index: Int) -> Bool { index / 4 + index % 4 >= 3 }

    /// The noise σ DCT4-2S assumes for each coefficient (index 4u + v), in units of the plane's:
    /// 1 for the DC; `1 − 0.5·contrast` for 1 ≤ u + v ≤ 2; `1 − 0.5·detail` for u + v ≥ 3. All
    /// exactly 1 at the defaults (x·1 is x in IEEE arithmetic, so DCT4-2S is unchanged).
    var coefficientNoiseScales: SIMD16<Float> {
        let fine = Float(1 - Self.strongest * detail)
        let coarse = Float(1 - Self.strongest * contrast)
        var scales = SIMD16<Float>(repeating: 1)
        for t in 1..<16 { scales[t] = Self.isFine(t) ? fine : coarse }
        return scales
    }

    /// What changes the denoised photosites, for the develop source's cache key ("" at the
    /// defaults, which keeps the default key as it was). Sharpness is not in it: it is an
    /// engine stage after the source, with its own digest, so moving it re-renders without
    /// developing again (X7).
    var sourceKey: String { contrast == 0 && detail == 0 ? "" : " nr contrast \(contrast) detail \(detail)" }
}
