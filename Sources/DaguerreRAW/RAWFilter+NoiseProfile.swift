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
        guard let pattern = header.mosaicLayout?.pattern else { return .noiseFree }
        if let given = CFANoiseProfile(dng: header.color.noiseProfile, cfaPattern: pattern.cfaPattern) { return given }
        return try cachedEstimate { () throws(DaguerreError) in try estimatedNoiseProfile() }
    }

    /// An X-Trans file's noise, each colour's model (planes indexed by colour:
    /// ``CFANoiseProfile/xTransColors``): from its DNG NoiseProfile; without one, estimated from
    /// the photosites (``NoiseEstimator/estimate(xTrans:pattern:region:)``, made once per filter)
    /// where `version` does so, else noise-free. An estimate too small to see counts as
    /// noise-free.
    func xTransNoiseProfile(_ version: PipelineVersion) throws(DaguerreError) -> CFANoiseProfile {
        if let stated = statedXTransNoiseProfile() { return stated }
        guard version.estimatesXTransNoise else { return .noiseFree }
        return try cachedEstimate { () throws(DaguerreError) -> CFANoiseProfile? in
            guard let mosaic = try wholeMosaic(), let pattern = mosaic.xTrans else { return nil }
            return NoiseEstimator.estimate(xTrans: mosaic, pattern: pattern, region: crop)
        }
    }

    /// The X-Trans noise the file states, or nil when it states none usable.
    func statedXTransNoiseProfile() -> CFANoiseProfile? {
        CFANoiseProfile(dng: header.color.noiseProfile, cfaPattern: CFANoiseProfile.xTransColors)
    }

    /// The estimate `make` gives (noise-free when it gives none, or one too small to see), made
    /// once per filter and shared by its copies.
    private func cachedEstimate(_ make: () throws(DaguerreError) -> CFANoiseProfile?) throws(DaguerreError) -> CFANoiseProfile {
        try facts.noiseProfile.withLock { (cached) throws(DaguerreError) -> CFANoiseProfile in
            if let cached { return cached }
            let estimate = try make()
            let result = estimate.map { $0.isNegligible() ? .noiseFree : $0 } ?? .noiseFree
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
