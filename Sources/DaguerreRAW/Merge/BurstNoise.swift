// The noise the burst merge compares frames against (SPEC P13): the shot + read model of the
// DNG NoiseProfile (variance S·x + O of the signal normalized to 0...1 above black), given by the
// caller or estimated from the reference frame as raw noise reduction does (SPEC X3).
import DaguerreCore

/// Per position of the 2×2 Bayer block (row-major), the noise variance of a normalized sample
/// x is `scale · x + offset`.
///
/// ```swift
/// let noise = try BurstNoise(dng: [(scale: 2e-4, offset: 3e-6)], reference: frames[0])
/// noise.variance(of: [0.2, 0.2, 0.2, 0.2])
/// ```
struct BurstNoise: Sendable, Equatable {
    let scale: SIMD4<Float>
    let offset: SIMD4<Float>

    /// The model of a DNG NoiseProfile (one pair for all colours, or one per colour R, G, B),
    /// or, when `dng` is nil, the estimate from the reference frame's own photosites
    /// (``NoiseEstimator``). One code step's rounding (1/12 step²) is added, so no model says a
    /// frame has no noise: without noise every difference would be motion and nothing merged.
    init(dng: [(scale: Double, offset: Double)]?, reference: BayerImage) throws(DaguerreError) {
        let profile: CFANoiseProfile
        if let dng {
            guard let given = CFANoiseProfile(dng: dng, cfaPattern: reference.pattern.cfaPattern) else {
                throw .invalidArgument(
                    what: "noise profile \(dng.map { "(\($0.scale), \($0.offset))" }.joined(separator: ", "))",
                    problem:
                        "give the DNG NoiseProfile: one (S, O) pair for all colours or one per colour (R, G, B), finite, with 0 ≤ S ≤ 1 and 0 ≤ O ≤ 1"
                )
            }
            profile = given
        } else {
            profile = NoiseEstimator.estimate(reference, region: IntRect(x: 0, y: 0, width: reference.width, height: reference.height))
        }
        var scale = SIMD4<Float>()
        var offset = SIMD4<Float>()
        for p in 0..<4 {
            let range = Double(reference.whiteLevel) - reference.blackLevel[p]
            scale[p] = Float(max(profile.planes[p].scale, 0))
            offset[p] = Float(max(profile.planes[p].offset, 0) + 1 / (12 * range * range))
        }
        self.scale = scale
        self.offset = offset
    }

    /// The variance of normalized samples at levels `x` (negative levels count as black).
    @inline(__always)
    func variance(of x: SIMD4<Float>) -> SIMD4<Float> {
        offset.addingProduct(x.replacing(with: 0, where: x .< 0), scale)
    }
}
