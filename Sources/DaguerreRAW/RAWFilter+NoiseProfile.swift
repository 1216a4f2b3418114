// Where RAWFilter's noise reduction gets its noise model (SPEC X3: "driven by the DNG
// NoiseProfile, or by an estimate when the file has none").
import DaguerreCore
import DaguerreFormats
import Synchronization

extension RAWFilter {
    /// The noise profile noise reduction uses: the DNG's NoiseProfile when it has a usable one,
    /// else an estimate from the developed photosites (``NoiseEstimator``) by the method of
    /// `version` (the filter's ``decoderVersion`` when nil), made once per filter and method; an
    /// estimate too small to see counts as noise-free.
    /// Only the estimate reads the photosites: a large mosaic still in its file is sampled in
    /// bands (the develop then streams it), a smaller one decoded whole.
    func noiseProfile(_ version: PipelineVersion? = nil) throws(DaguerreError) -> CFANoiseProfile {
        guard let pattern = header.mosaicLayout?.pattern else { return .noiseFree }
        if let given = CFANoiseProfile(dng: header.color.noiseProfile, cfaPattern: pattern.cfaPattern) { return given }
        let method: NoiseEstimator.Method
        if let version { method = version.noiseEstimate } else { method = try pipelineVersion.noiseEstimate }
        return try cachedEstimate(method) { () throws(DaguerreError) in try estimatedNoiseProfile(method) }
    }

    /// An X-Trans file's noise, each colour's model (planes indexed by colour:
    /// ``CFANoiseProfile/xTransColors``): from its DNG NoiseProfile; without one, estimated from
    /// the photosites (``NoiseEstimator/estimate(xTrans:pattern:region:)``, made once per filter)
    /// where `version` does so, else noise-free. An estimate too small to see counts as
    /// noise-free.
    func xTransNoiseProfile(_ version: PipelineVersion) throws(DaguerreError) -> CFANoiseProfile {
        if let stated = statedXTransNoiseProfile() { return stated }
        guard version.estimatesXTransNoise else { return .noiseFree }
        // One model for the three colours: the texture-separated fit needs four planes to agree,
        // so every version estimates X-Trans noise with the two-term fit.
        return try cachedEstimate(.shotAndRead) { () throws(DaguerreError) -> CFANoiseProfile? in
            guard let mosaic = try wholeMosaic(), let pattern = mosaic.xTrans else { return nil }
            return NoiseEstimator.estimate(xTrans: mosaic, pattern: pattern, region: crop)
        }
    }

    /// The X-Trans noise the file states, or nil when it states none usable.
    func statedXTransNoiseProfile() -> CFANoiseProfile? {
        CFANoiseProfile(dng: header.color.noiseProfile, cfaPattern: CFANoiseProfile.xTransColors)
    }

    /// The estimate `make` gives by `method` (noise-free when it gives none, or one too small
    /// to see), made once per filter and method and shared by its copies.
    private func cachedEstimate(
        _ method: NoiseEstimator.Method, _ make: () throws(DaguerreError) -> CFANoiseProfile?
    ) throws(DaguerreError) -> CFANoiseProfile {
        try facts.noiseProfiles.withLock { (cached) throws(DaguerreError) -> CFANoiseProfile in
            if let known = cached[method] { return known }
            let estimate = try make()
            let result = estimate.map { $0.isNegligible() ? .noiseFree : $0 } ?? .noiseFree
            cached[method] = result
            return result
        }
    }

    /// The estimate from the bands of a mosaic still in its file, when it is large enough to
    /// be sampled and nothing has decoded it whole yet; else from the whole mosaic (the same
    /// blocks either way).
    private func estimatedNoiseProfile(_ method: NoiseEstimator.Method) throws(DaguerreError) -> CFANoiseProfile? {
        if let deferred, deferred.wholeIfDecoded == nil,
            let sampled = try NoiseEstimator.estimate(deferred.stored, region: crop, limits: limits, method: method)
        {
            return sampled
        }
        guard let mosaic = try wholeMosaic() else { return nil }
        return NoiseEstimator.estimate(mosaic, region: crop, method: method)
    }
}
