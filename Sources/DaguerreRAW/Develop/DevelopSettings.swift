// What a develop runs with, decided once by RAWFilter from its options and the pipeline version
// (SPEC X1–X5): the matrix and white balance, the crop, the demosaic and its domain, and the
// stages a version has (highlights, noise reduction, lens shading).
import DaguerreCore
import DaguerreFormats

/// What the decoder needs to develop a mosaic: decided by ``RAWFilter``.
struct DevelopSettings: Sendable {
    /// Camera RGB (linearized, 0...1 of the white level above black) → working RGB, white balance included.
    var matrix: Matrix3
    /// The camera's response to the scene white (largest channel 1): LMMSE-GW demosaics the
    /// mosaic divided by it (white balanced, white at 1).
    var neutral: SIMD3<Double>
    /// The photosites developed (DNG ActiveArea and DefaultCrop).
    var crop: IntRect
    var workingSpace: ColorSpace
    var demosaic: DemosaicMethod
    /// The curve LMMSE-GW works in: the sRGB curve's tables (versions 2, 3) or the power 2.5 (4).
    var domain: DemosaicDomain = .sRGB
    /// Highlight handling on the white-balanced camera RGB (pipeline version 3); nil before.
    var highlight: HighlightRecovery?
    /// Raw noise reduction before white balance and demosaic (X3, pipeline version 3; LMMSE-GW
    /// path only), or nil for none.
    var noiseReduction: NoiseReductionSettings? = nil
    /// OpcodeList2's gain maps (lens correction on, version 3), in `activeArea`'s coordinates;
    /// every demosaic applies them to the linearized photosites.
    var gainMaps: [DNGGainMap] = []
    var activeArea: IntRect? = nil
    /// The caller's size limits (RAWFilter's), checked before anything is allocated.
    var limits: Limits = .default

    /// A camera neutral scaled so its largest channel is 1 (the white-balance gains are its reciprocals).
    static func normalized(_ neutral: SIMD3<Double>) -> SIMD3<Double> { neutral / max(neutral.max(), 1e-12) }
    var balance: SIMD3<Double> { Self.normalized(neutral) }
}

/// What DCT4-2S runs with (see ``MosaicNoiseReduction``).
struct NoiseReductionSettings: Sendable, Equatable {
    /// The noise of each Bayer position (from the DNG, or estimated).
    var profile: CFANoiseProfile
    /// The amount a: the noise σ assumed, in units of the profile's (REPORT §3; 1 = as profiled).
    var amount: Float
    /// Core Image's detail and contrast controls (X1; the defaults are DCT4-2S as specified).
    var controls = NoiseReductionControls()
    /// Every block (pipeline version 3) or every other block in each direction (version 4).
    var blockStep: DCT4PlaneDenoiser.BlockStep = .every
    /// Each Bayer plane's own first stage (versions 3–6) or one over the four together (version 7).
    var pilot: MosaicNoiseReduction.Pilot = .perPlane
}

/// The demosaic methods (X2: a fast one for draft mode and small scales, a high-quality one).
public enum DemosaicMethod: String, Sendable, CaseIterable {
    /// Each missing colour is the mean of its nearest same-colour photosites (3×3). Draft mode,
    /// and pipeline version 1.
    case bilinear
    /// LMMSE-GW on the white-balanced, sRGB-encoded mosaic (LMMSEGWDemosaic): the default
    /// from pipeline version 2.
    case lmmseGW
    /// Each 2×2 block of photosites becomes one pixel (red, the mean of the greens, blue): half
    /// the width and height, no interpolation. For draft mode and scale factors of ½ or less (X2, X7).
    case halfSize
}

extension DevelopSettings {
    /// The camera's neutral normalized to a largest channel of 1, and its reciprocal: the white
    /// balance gains, which take camera RGB to white-balanced RGB with white at 1.
    var whiteBalance: (neutral: SIMD3<Float>, gain: SIMD3<Float>) {
        let n = balance
        let f = SIMD3<Float>(Float(max(n.x, 1e-6)), Float(max(n.y, 1e-6)), Float(max(n.z, 1e-6)))
        return (f, 1 / f)
    }
}
