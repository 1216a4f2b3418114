// Still-image stabilization's fusion (SPEC P13): a burst of short exposures of one request,
// aligned and merged into one RAW still with the same signal scale as one frame.
import DaguerreCore

enum StillFusion {
    /// One RAW sample buffer from a burst (the first frame is the reference, so the photo's
    /// time and metadata are its).
    static func fuse(_ burst: [SampleBuffer]) throws(DaguerreError) -> SampleBuffer {
        throw .unsupported(
            feature: "multi-frame still-image stabilization (burst alignment and merge)",
            hint: "It is not built yet; turn isAutoStillImageStabilizationEnabled off.")
    }
}
