// One accepted photo request, resolved (SPEC P7): what it will deliver, at what size, and how
// its exposures are made: from the zero-shutter-lag ring, as a new exposure, with the flash, as
// a bracket, or as a stabilization burst.
import DaguerreCore
import Foundation

/// How a request's exposures are made.
enum PhotoExposurePlan: Sendable, Hashable {
    /// The kept frame nearest the request (no new exposure).
    case zeroShutterLag
    /// One new exposure at the stream's settings.
    case newExposure
    /// A pre-flash, then one exposure with the main flash (P13).
    case flash
    /// One exposure per bracketed still setting (P10).
    case bracket([BracketedStillImageSettings])
    /// A burst of short exposures fused into one (P13).
    case stabilizationBurst(count: Int)
}

/// A request the output accepted: its settings, resolved settings, plan and delegate.
struct PhotoCaptureJob: Sendable {
    let settings: PhotoSettings
    let bracketSettings: [BracketedStillImageSettings]?
    let resolved: ResolvedPhotoSettings
    let plan: PhotoExposurePlan
    /// When the request was made: on the session's clock, and on the wall clock.
    let requestTime: Double
    let requestDate: Date
    /// The still size the sensor is read out at, and the processed photo's colour space.
    let stillDimensions: CaptureDimensions
    let colorSpace: ColorSpace
    let wantsProcessed: Bool
    let wantsRAW: Bool
    let device: any PhotoCaptureDevice
    let delegate: WeakPhotoDelegate
    /// The stream's frame interval, for zero shutter lag's choice of frame.
    let frameInterval: Double
    /// Whether a bracket is exposed with the lens stabilized (P10).
    let isLensStabilizationEnabled: Bool
    /// The Live Photo movie, when the settings ask for one (L1).
    var livePhoto: LivePhotoCapture?

    /// The images the plan makes (1, or one per bracket image).
    var imageCount: Int { bracketSettings?.count ?? 1 }
}

/// The default preview box's longer side, when the settings give a pixel format without a box.
let defaultPreviewMaxSide = 320

extension CaptureDimensions {
    static let zero = CaptureDimensions(width: 0, height: 0)

    /// This size fitted into `box` with its aspect ratio kept (V3: 4032×3024 into 160×160 is
    /// 160×120), each side at least 1 and even when the source's is.
    func fitted(into box: CaptureDimensions) -> CaptureDimensions {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return .zero }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height), 1)
        let w = max(1, Int((Double(width) * scale).rounded()))
        let h = max(1, Int((Double(height) * scale).rounded()))
        return CaptureDimensions(width: w, height: h)
    }
}

/// A Live Photo request's movie: its job, the join of its callbacks, and the identifier the
/// still and the movie share (L3).
struct LivePhotoCapture: Sendable {
    let movie: LivePhotoMovieJob
    let completion: LivePhotoCompletion
    let contentIdentifier: String
}
