// Where RAWFilter's noise reduction gets its noise model (SPEC X3: "driven by the DNG
// NoiseProfile, or by an estimate when the file has none").
import DaguerreCore
import DaguerreFormats
import Synchronization

extension RAWFilter {
    /// The noise profile noise reduction uses: the DNG's NoiseProfile when it has a usable one,
    /// else an estimate from the developed photosites (``NoiseEstimator``), made once per filter;
    /// an estimate too small to see counts as noise-free.
    /// Only the estimate reads the photosites: a mosaic still in its file is decoded for it.
    func noiseProfile() throws(DaguerreError) -> CFANoiseProfile {
        try facts.noiseProfile.withLock { (cached) throws(DaguerreError) -> CFANoiseProfile in
            if let cached { return cached }
            guard let pattern = header.mosaicLayout?.pattern else { return .noiseFree }
            let result: CFANoiseProfile
            if let given = CFANoiseProfile(dng: header.color.noiseProfile, cfaPattern: pattern.cfaPattern) {
                result = given
            } else if let mosaic = try wholeMosaic() {
                let estimate = NoiseEstimator.estimate(mosaic, region: crop)
                result = estimate.isNegligible() ? .noiseFree : estimate
            } else {
                result = .noiseFree
            }
            cached = result
            return result
        }
    }
}
