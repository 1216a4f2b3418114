// Whether the photo output can take a photo now (responsive capture, as iOS 17's
// AVCapturePhotoOutput.CaptureReadiness): a shutter button greys out while it says no.

/// The photo output's readiness for a new request.
///
/// ```swift
/// for await readiness in photoOutput.captureReadinessUpdates() {
///     shutterButton.isEnabled = readiness == .ready
/// }
/// ```
public enum PhotoCaptureReadiness: String, Sendable, Hashable, CaseIterable {
    /// The session is not running: a request would be refused.
    case sessionNotRunning
    /// A request now starts at once.
    case ready
    /// A request now would wait a moment (a frame is being chosen or read).
    case notReadyMomentarily
    /// A request now would wait for the exposures in progress (flash, brackets, a burst).
    case notReadyWaitingForCapture
    /// A request now would wait for earlier photos to be processed (the queue is full).
    case notReadyWaitingForProcessing
}
