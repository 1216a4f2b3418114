// The noise model that drives raw noise reduction (SPEC X3): for each of the
// four positions of the 2×2 Bayer block, the variance of the linearized signal x (black
// subtracted, divided by white − black) is σ² = S·x + O, as the DNG NoiseProfile tag states it.
// Our own code: a small value type over the DNG facts.
import DaguerreFormats

/// The variance model σ²(x) = `scale`·x + `offset` of one CFA plane (DNG 1.4 NoiseProfile).
struct NoiseModel: Sendable, Equatable {
    /// S: the signal-dependent (shot noise) part, per unit of x.
    var scale: Double
    /// O: the signal-independent (read noise) part.
    var offset: Double

    static let zero = NoiseModel(scale: 0, offset: 0)

    /// The standard deviation of the noise at signal level `x`.
    func sigma(at x: Double) -> Double { (max(scale * x + offset, 0)).squareRoot() }

    /// True when the model describes some noise: noise reduction bypasses planes without it.
    var hasNoise: Bool { scale > 0 || offset > 0 }
}

/// The noise of each position of the 2×2 Bayer block, row-major (the same indexing as
/// `BayerImage.blackLevel`: position `(y & 1) * 2 + (x & 1)` in image coordinates).
///
/// ```swift
/// let profile = CFANoiseProfile(dng: dng.color.noiseProfile, cfaPattern: mosaic.pattern.cfaPattern)
/// // nil: the file has no usable NoiseProfile; estimate one with NoiseEstimator.
/// ```
struct CFANoiseProfile: Sendable, Equatable {
    var planes: [NoiseModel]

    /// Four models, by position; missing ones are noise-free.
    init(planes: [NoiseModel]) { self.planes = (0..<4).map { $0 < planes.count ? planes[$0] : .zero } }

    /// One model for all four planes.
    init(uniform model: NoiseModel) { planes = [model, model, model, model] }

    static let noiseFree = CFANoiseProfile(uniform: .zero)

    /// The DNG NoiseProfile read as the planes' models, or nil when the file gives none or gives
    /// unusable values (not finite; a negative scale; a negative offset with a zero scale; a scale
    /// or offset above 1, which would be noise beyond the signal's whole range; or a count other
    /// than 1 or one pair per colour plane).
    ///
    /// DNG 1.4 (NoiseProfile, tag 51041): one (S, O) pair for all planes, or one pair per colour
    /// plane, in CFAPlaneColor order (R, G, B for the Bayer CFAs read here). A pair (0, 0) is a
    /// valid statement that the image has no noise; it is returned and turns noise reduction off.
    init?(dng pairs: [(scale: Double, offset: Double)], cfaPattern: [UInt8]) {
        guard cfaPattern.count == 4, cfaPattern.allSatisfy({ $0 < 3 }) else { return nil }
        let models = pairs.map { NoiseModel(scale: $0.scale, offset: $0.offset) }
        guard
            models.allSatisfy({
                $0.scale.isFinite && $0.offset.isFinite && $0.scale >= 0 && ($0.scale > 0 || $0.offset >= 0)
                    && $0.scale <= 1 && $0.offset <= 1
            })
        else {
            return nil
        }
        switch models.count {
        case 1: self.init(uniform: models[0])
        case 3: self.init(planes: cfaPattern.map { models[Int($0)] })
        default: return nil
        }
    }

    /// The colours a profile is read with for an X-Trans mosaic (R, G, B, G), so that its
    /// `planes[c]` is colour c's model: X-Trans noise reduction works on single-colour planes,
    /// not on the positions of a 2×2 block.
    static let xTransColors: [UInt8] = [0, 1, 2, 1]

    /// True when at least one plane has noise to reduce.
    var hasNoise: Bool { planes.contains { $0.hasNoise } }

    /// True when the noise is too small to see: the standard deviation at 18 % grey is below
    /// `visibleSigma` in every plane (2.5e-4 of white is under a tenth of an 8-bit sRGB step there).
    /// Noise reduction leaves such images untouched (used for estimated profiles).
    func isNegligible(visibleSigma: Double = 2.5e-4) -> Bool {
        planes.allSatisfy { $0.sigma(at: 0.18) < visibleSigma }
    }
}
