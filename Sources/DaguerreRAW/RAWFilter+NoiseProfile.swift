// Where RAWFilter's noise reduction gets its noise model (SPEC X3: "driven by the DNG
// NoiseProfile, or by an estimate when the file has none").
import DaguerreFormats
import Synchronization

extension RAWFilter {
    /// The noise profile noise reduction uses: the DNG's NoiseProfile when it has a usable one,
    /// else an estimate from the developed photosites (``NoiseEstimator``), made once per filter;
    /// an estimate too small to see counts as noise-free.
    func noiseProfile(_ mosaic: BayerImage) -> CFANoiseProfile {
        facts.noiseProfile.withLock { cached in
            if let cached { return cached }
            let result: CFANoiseProfile
            if let given = CFANoiseProfile(dng: dng.color.noiseProfile, cfaPattern: mosaic.pattern.cfaPattern) {
                result = given
            } else {
                let estimate = NoiseEstimator.estimate(mosaic, region: crop)
                result = estimate.isNegligible() ? .noiseFree : estimate
            }
            cached = result
            return result
        }
    }
}
