// The output holds each request's delegate weakly (SPEC P9): a delegate released mid-capture
// simply misses the rest of its callbacks, and nothing is kept alive for it.
import DaguerreCore
import Foundation

/// A weak reference to a request's delegate, and the calls the pipeline makes through it.
final class WeakPhotoDelegate: Sendable {
    weak let delegate: (any PhotoCaptureDelegate)?

    init(_ delegate: any PhotoCaptureDelegate) {
        self.delegate = delegate
    }

    func willBeginCapture(_ output: PhotoOutput, _ resolved: ResolvedPhotoSettings) {
        delegate?.capture(output, willBeginCaptureForResolvedSettings: resolved)
    }

    func willCapturePhoto(_ output: PhotoOutput, _ resolved: ResolvedPhotoSettings) {
        delegate?.capture(output, willCapturePhotoForResolvedSettings: resolved)
    }

    func didCapturePhoto(_ output: PhotoOutput, _ resolved: ResolvedPhotoSettings) {
        delegate?.capture(output, didCapturePhotoForResolvedSettings: resolved)
    }

    func didFinishProcessingPhoto(
        _ output: PhotoOutput, photo: SampleBuffer?, preview: SampleBuffer?, resolved: ResolvedPhotoSettings,
        bracket: BracketedStillImageSettings?, error: DaguerreError?
    ) {
        (delegate as? any PhotoProcessingDelegate)?.capture(
            output, didFinishProcessingPhotoSampleBuffer: photo, previewPhotoSampleBuffer: preview, resolvedSettings: resolved,
            bracketSettings: bracket, error: error)
    }

    func didFinishProcessingRawPhoto(
        _ output: PhotoOutput, raw: SampleBuffer?, preview: SampleBuffer?, resolved: ResolvedPhotoSettings,
        bracket: BracketedStillImageSettings?, error: DaguerreError?
    ) {
        (delegate as? any RawPhotoProcessingDelegate)?.capture(
            output, didFinishProcessingRawPhotoSampleBuffer: raw, previewPhotoSampleBuffer: preview, resolvedSettings: resolved,
            bracketSettings: bracket, error: error)
    }

    func didFinishRecordingLivePhotoMovie(_ output: PhotoOutput, url: URL, _ resolved: ResolvedPhotoSettings) {
        delegate?.capture(output, didFinishRecordingLivePhotoMovieForEventualFileAt: url, resolvedSettings: resolved)
    }

    func didFinishProcessingLivePhotoMovie(
        _ output: PhotoOutput, url: URL, duration: Double, photoDisplayTime: Double, _ resolved: ResolvedPhotoSettings,
        error: DaguerreError?
    ) {
        (delegate as? any LivePhotoMovieProcessingDelegate)?.capture(
            output, didFinishProcessingLivePhotoToMovieFileAt: url, duration: duration, photoDisplayTime: photoDisplayTime,
            resolvedSettings: resolved, error: error)
    }

    func didFinishCapture(_ output: PhotoOutput, _ resolved: ResolvedPhotoSettings, error: DaguerreError?) {
        delegate?.capture(output, didFinishCaptureForResolvedSettings: resolved, error: error)
    }
}
