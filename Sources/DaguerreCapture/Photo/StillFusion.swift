// Still-image stabilization's fusion (SPEC P13): the burst of one request, aligned and merged
// by DaguerreRAW's BurstMerge into one RAW still with the signal scale of one frame and the
// noise of the whole burst. The photo keeps the first frame's time, metadata and calibration,
// and the exposure facts say what the burst added up to.
import DaguerreCore
import DaguerreRAW

enum StillFusion {
    /// One RAW sample buffer from a burst of RAW sample buffers; the first is the reference.
    static func fuse(_ burst: [SampleBuffer]) throws(DaguerreError) -> SampleBuffer {
        var mosaics: [BayerImage] = []
        for frame in burst {
            guard let mosaic = frame.bayerImage else {
                throw .invalidArgument(what: "a stabilization burst frame", problem: "it holds no Bayer mosaic")
            }
            mosaics.append(mosaic)
        }
        guard var fused = burst.first else {
            throw .invalidArgument(what: "an empty stabilization burst", problem: "a burst needs at least one frame")
        }
        let noise = fused.rawCalibration?.noiseProfile
        let merged = try BurstMerge().merge(mosaics, reference: 0, noise: noise?.isEmpty == false ? noise : nil)
        fused.content = .bayer(merged)
        // The merged frame's noise is the burst's: its profile is the frame's divided by N.
        if var calibration = fused.rawCalibration, !calibration.noiseProfile.isEmpty {
            let n = Double(burst.count)
            calibration.noiseProfile = calibration.noiseProfile.map { (scale: $0.scale / n, offset: $0.offset / n) }
            fused.rawCalibration = calibration
        }
        return fused
    }
}
