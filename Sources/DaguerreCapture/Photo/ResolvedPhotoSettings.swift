// What a photo request turned into (SPEC P7): immutable, known before the first callback, and
// passed to every callback of the request.
import DaguerreCore

/// A photo request's settings once the output has decided everything the request left open:
/// whether `.auto` flash fires, whether still-image stabilization runs, the dimensions, how many
/// images will come (the seeds' AVCaptureResolvedPhotoSettings).
///
/// ```swift
/// func capture(_ output: PhotoOutput, willBeginCaptureFor resolved: ResolvedPhotoSettings) {
///     print(resolved.uniqueID, resolved.photoDimensions, resolved.isFlashEnabled, resolved.expectedPhotoCount)
/// }
/// ```
public struct ResolvedPhotoSettings: Sendable, Hashable {
    /// The request's ``PhotoSettings/uniqueID``.
    public let uniqueID: Int64
    /// The processed photo's size (zero for RAW only).
    public let photoDimensions: CaptureDimensions
    /// The RAW photo's size (zero without RAW).
    public let rawPhotoDimensions: CaptureDimensions
    /// The preview's size (zero without a preview).
    public let previewPhotoDimensions: CaptureDimensions
    public let isFlashEnabled: Bool
    public let isStillImageStabilizationEnabled: Bool
    /// The Live Photo movie's size (zero without a movie).
    public let livePhotoMovieDimensions: CaptureDimensions
    /// How many photo callbacks will come: one per image, counting a RAW and its processed photo
    /// as one each (P11: m brackets with RAW + JPEG give 2m).
    public let expectedPhotoCount: Int
}
