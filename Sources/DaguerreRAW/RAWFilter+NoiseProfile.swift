// Where RAWFilter's noise reduction gets its noise model (SPEC X3: "driven by the DNG
// NoiseProfile, or by an estimate when the file has none").
import DaguerreCore
import DaguerreFormats
import Synchronization

extension RAWFilter {
    /// The noise profile noise reduction uses: the DNG's NoiseProfile when it has a usable one,
    /// else an estimate from the developed photosites (``NoiseEstimator``), made once per filter;
    /// an estimate too small to see counts as noise-free.
    /// Only the estimate reads the photosites: a large mosaic still in its file is sampled in
    /// bands (the develop then streams it), a smaller one decoded whole.
    func noiseProfile() throws(DaguerreError) -> CFANoiseProfile {
        try facts.noiseProfile.withLock { (cached) throws(DaguerreError) -> CFANoiseProfile in
            if let cached { return cached }
            guard let pattern = header.mosaicLayout?.pattern else { return .noiseFree }
            let result: CFANoiseProfile
            if let given = CFANoiseProfile(dng: header.color.noiseProfile, cfaPattern: pattern.cfaPattern) {
                result = given
            } else if let estimate = try estimatedNoiseProfile() {
                result = estimate.isNegligible() ? .noiseFree : estimate
            } else {
                result = .noiseFree
            }
            cached = result
            return result
        }
    }

    /// The estimate from the bands of a mosaic still in its file, when it is large enough to
    /// be sampled and nothing has decoded it whole yet; else from the whole mosaic (the same
    /// blocks either way).
    private func estimatedNoiseProfile() throws(DaguerreError) -> CFANoiseProfile? {
        if let deferred, deferred.wholeIfDecoded == nil,
            let sampled = try NoiseEstimator.estimate(deferred.stored, region: crop, limits: limits)
        {
            return sampled
        }
        guard let mosaic = try wholeMosaic() else { return nil }
        return NoiseEstimator.estimate(mosaic, region: crop)
    }
}
