// Core Image's noiseReductionSharpnessAmount (SPEC X1, X3): gives back the edge sharpness that
// raw noise reduction takes from low-contrast edges, without giving back the noise. DCT4-2S
// keeps strong edges (the research's 4:1 slanted edge keeps its noise-free MTF50) but softens
// edges only a few noise σ high, where the Wiener gains fall below 1. This stage is an unsharp
// mask of the developed luminance whose detail is measured in units of the raw noise and cored
// there, so a step that stands out from the noise is steepened and the noise left in flat areas
// is not. Our own code on the engine's blur.
import DaguerreCore
import DaguerreImage

/// Luminance unsharp mask after the demosaic, in the noise-stabilized domain, with soft coring.
///
/// With Y the develop's luminance, Y_b its Gaussian blur (σ = ``radius`` px) and F the
/// generalized Anscombe transform of the luminance's noise model (noise σ ≈ 1 after F at every
/// level): the detail d = F(Y) − F(Y_b) is in noise σ units; it is cored softly,
/// d·d²/(d² + t²) with t = ``coring`` σ, scaled by `amount`, added to F(Y) and brought back
/// through F⁻¹; the change of Y is added to R, G and B alike (chroma kept, as in
/// ``ChromaNoiseReduction``). `amount` 0…1 is the mask's gain (1: the detail above the noise
/// doubled).
///
/// Why after the demosaic, on luminance, and not per CFA plane inside DCT4-2S: a CFA plane is
/// sampled every 2 photosites, so any filter on the planes acts on the image as a kernel with
/// holes, whose gain repeats at half the sampling rate (it boosts 0.25 cycles/pixel and gives
/// nothing back at 0.5, where the lost edge detail is) and which rings 2 pixels from an edge.
/// Prototyped on the noise research's low-contrast slanted edge (0.15/0.20, ISO 1600, mean of
/// 16 renders; MTF50 0.477 cycles/pixel after DCT4-2S), a boost of the Wiener stage's DCT
/// coefficients (the USM's gain per frequency) reached only 0.487 and raised the flat-area
/// noise 18 %; this stage at amount 1 reached 0.645 with 4 % more noise (0.5: 0.602, 2 %).
/// Why stabilized: there the noise is the same at every level, so one coring threshold suits
/// shadows and highlights, which a threshold on linear or gamma-encoded luminance cannot.
///
/// ```swift
/// let luma = NoiseReductionSharpening.luminanceNoise(profile: profile, cfaPattern: [0, 1, 1, 2],
///                                                    matrix: settings.matrix, neutral: settings.neutral)
/// let crisp = try NoiseReductionSharpening(amount: 0.5, luminanceNoise: luma).apply(to: develop)
/// ```
struct NoiseReductionSharpening: Sendable, Equatable {
    /// The mask's gain, 0…1 (0: the stage is left out).
    var amount: Double
    /// The noise of the develop's luminance: variance = scale·Y + offset.
    var luminanceNoise: NoiseModel

    /// The Gaussian's σ in pixels, and the coring threshold in noise σ.
    static let radius = 1.0, coring: Float = 1

    /// The luminance weights of the linear develop (Rec. 709, as ``ChromaNoiseReduction`` uses).
    static let luma = Luma.rec709

    /// The luminance's noise model from the raw one. The develop's luminance is
    /// Y = Σ m_c·x_c, m = ℓᵀ·matrix (camera → working RGB, white balance included, ℓ the luma
    /// weights), where colour c's linearized camera signal x_c has variance S_c·x_c + O_c (the
    /// mean of its Bayer positions' models). With the channels' noise independent and the signal
    /// neutral (x = t·neutral, so Y = t·Σ m_c·n_c): var Y = (Σ m_c²·S_c·n_c / Σ m_c·n_c)·Y + Σ m_c²·O_c.
    static func luminanceNoise(profile: CFANoiseProfile, cfaPattern: [UInt8], matrix: Matrix3, neutral: SIMD3<Double>) -> NoiseModel {
        var scale = SIMD3<Double>.zero
        var offset = SIMD3<Double>.zero
        var count = SIMD3<Double>.zero
        for (position, colour) in cfaPattern.prefix(4).enumerated() where colour < 3 {
            scale[Int(colour)] += profile.planes[position].scale
            offset[Int(colour)] += profile.planes[position].offset
            count[Int(colour)] += 1
        }
        let l = SIMD3<Double>(Double(luma.x), Double(luma.y), Double(luma.z))
        var weighted = 0.0
        var s = 0.0
        var o = 0.0
        for c in 0..<3 where count[c] > 0 {
            let m = l.x * matrix[0, c] + l.y * matrix[1, c] + l.z * matrix[2, c]
            weighted += m * neutral[c]
            s += m * m * scale[c] / count[c] * neutral[c]
            o += m * m * offset[c] / count[c]
        }
        guard weighted > 0, s.isFinite, o.isFinite else { return .zero }
        return NoiseModel(scale: max(s / weighted, 0), offset: max(o, 0))
    }

    /// The luminance of each pixel in every colour channel (what is blurred).
    static let luminanceKernel = ColorKernel(name: "rawNRSharpenLuminance") { ctx in
        let p = ctx.pixel(at: 0)
        let y = (p * luma).sum()
        return SIMD4(y, y, y, p.w)
    }

    /// Arguments: the develop, its blurred luminance, gain, coring threshold, then the noise
    /// transform's constants (built once per render, not per pixel).
    static let sharpenKernel = ColorKernel(name: "rawNRSharpen") { ctx in
        let p = ctx.pixel(at: 0)
        let blurred = ctx.pixel(at: 1).x
        let gain = ctx.values.float(at: 2)
        let t = ctx.values.float(at: 3)
        let vst = GeneralizedAnscombe(ctx.values, from: 4)
        let z = vst.forward((p * luma).sum())
        let d = z - vst.forward(blurred)
        let change = vst.inverse(z + gain * d * d * d / (d * d + t * t)) - vst.inverse(z)
        return p + SIMD4(change, change, change, 0)
    }

    /// The sharpened develop, or the input when there is nothing to do (amount 0, no noise, or
    /// an empty or infinite extent).
    func apply(to image: Image) throws(DaguerreError) -> Image {
        guard amount > 0, luminanceNoise.hasNoise, !image.extent.isEmpty, !image.extent.isInfinite else { return image }
        let extent = image.extent
        let luminance = Self.luminanceKernel.apply(extent: extent, arguments: [.image(image)])
        let blurred = try luminance.clampedToExtent().applying(GaussianBlur(radius: Self.radius)).cropped(to: extent)
        // From the Float model, as the kernel built it per pixel before: the same constants.
        let vst = GeneralizedAnscombe(NoiseModel(scale: Double(Float(luminanceNoise.scale)), offset: Double(Float(luminanceNoise.offset))))
        return Self.sharpenKernel.apply(
            extent: extent,
            arguments: [.image(image), .image(blurred), .float(Float(amount)), .float(Self.coring)]
                + vst.constants.map { .float($0) })
    }
}
