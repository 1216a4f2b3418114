// The callbacks of one photo request (SPEC P8, P9, L7), in the seeds' iOS 10 names. Swift has no
// optional protocol methods, so the callbacks that become required for some settings are
// protocols of their own, which the output checks for when the capture is requested: a
// processed photo needs a ``PhotoProcessingDelegate``, a RAW photo a
// ``RawPhotoProcessingDelegate``, a Live Photo a ``LivePhotoMovieProcessingDelegate``.
import DaguerreCore
import Foundation

/// The delegate of a photo request (AVCapturePhotoCaptureDelegate). Every callback is optional
/// (a default does nothing); all carry the request's ``ResolvedPhotoSettings``. The output holds
/// the delegate weakly and calls it on a queue of its own, in this order (P8): willBeginCapture
/// (always first) → willCapturePhoto → didCapturePhoto → the photo callbacks (one per image)
/// → didFinishRecordingLivePhotoMovie → didFinishProcessingLivePhotoToMovieFile →
/// didFinishCapture (always last).
///
/// ```swift
/// final class Camera: PhotoProcessingDelegate, @unchecked Sendable {
///     func capture(_ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
///                  previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
///                  bracketSettings: BracketedStillImageSettings?, error: DaguerreError?) {
///         guard let photoSampleBuffer else { return }
///         let jpeg = try? PhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photoSampleBuffer,
///                                                                  previewPhotoSampleBuffer: previewPhotoSampleBuffer)
///     }
/// }
/// ```
public protocol PhotoCaptureDelegate: AnyObject, Sendable {
    func capture(_ captureOutput: PhotoOutput, willBeginCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings)
    /// The shutter: the exposure starts (flash photos: after the pre-flash).
    func capture(_ captureOutput: PhotoOutput, willCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings)
    /// The exposure is over; processing begins.
    func capture(_ captureOutput: PhotoOutput, didCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings)
    func capture(
        _ captureOutput: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: ResolvedPhotoSettings)
    /// Always last, also after a failure (`error`).
    func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings,
        error: DaguerreError?)
}

extension PhotoCaptureDelegate {
    public func capture(_ captureOutput: PhotoOutput, willBeginCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {}
    public func capture(_ captureOutput: PhotoOutput, willCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {}
    public func capture(_ captureOutput: PhotoOutput, didCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {}
    public func capture(
        _ captureOutput: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: ResolvedPhotoSettings
    ) {}
    public func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings,
        error: DaguerreError?
    ) {}
}

/// A delegate that takes processed photos (JPEG, BGRA, 420f, 420v): required when the settings
/// ask for one.
///
/// ```swift
/// final class Saver: PhotoProcessingDelegate, @unchecked Sendable { func capture(...) { ... } }
/// ```
public protocol PhotoProcessingDelegate: PhotoCaptureDelegate {
    /// One processed image (one per bracket image), with its preview; `bracketSettings` names the
    /// bracket image; on failure the buffers are nil and `error` says why.
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
        bracketSettings: BracketedStillImageSettings?, error: DaguerreError?)
}

/// A delegate that takes RAW photos: required when the settings ask for RAW.
///
/// ```swift
/// final class RawSaver: RawPhotoProcessingDelegate, @unchecked Sendable { func capture(...) { ... } }
/// ```
public protocol RawPhotoProcessingDelegate: PhotoCaptureDelegate {
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingRawPhotoSampleBuffer rawSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
        bracketSettings: BracketedStillImageSettings?, error: DaguerreError?)
}

/// A delegate that takes Live Photo movies: required when the settings name a movie file (L7).
///
/// ```swift
/// final class LiveSaver: LivePhotoMovieProcessingDelegate, @unchecked Sendable { func capture(...) { ... } }
/// ```
public protocol LivePhotoMovieProcessingDelegate: PhotoCaptureDelegate {
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: Double,
        photoDisplayTime: Double, resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?)
}
