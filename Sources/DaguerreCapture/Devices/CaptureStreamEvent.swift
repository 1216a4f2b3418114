// What a streaming device hands the session: frames, audio, interruptions and failures (SPEC C1;
// the session turns the last three into its own events).
import DaguerreCore

/// Why a device stopped delivering for a while (AVCaptureSession.InterruptionReason).
///
/// ```swift
/// handler(.interrupted(.videoDeviceInUseByAnotherClient))   // from a device's stream
/// ```
public enum CaptureInterruptionReason: Sendable, Hashable {
    case videoDeviceNotAvailableInBackground
    case audioDeviceInUseByAnotherClient
    case videoDeviceInUseByAnotherClient
    case videoDeviceNotAvailableWithMultipleForegroundApps
    /// Anything else, described.
    case other(String)
}

/// One thing a streaming device reports to the handler given to
/// ``CaptureDevice/startStreaming(clock:handler:)``.
///
/// Video devices send `.video`, audio devices `.audio`. A camera told that no output takes its
/// frames' pixels (``CaptureDevice/setFramePixelsWanted(_:)``) may send `.metering` instead: the
/// frame's facts (time, exposure, light), which the photo output needs for zero shutter lag and
/// scene monitoring. `.interrupted` / `.interruptionEnded`
/// bracket a pause the device did not choose (another client took the camera); `.failed` ends the
/// stream with an error (the session reports it as a runtime error and stops).
///
/// ```swift
/// try device.startStreaming(clock: clock) { event in
///     if case let .video(frame) = event { print(frame.metadata.timestamp) }
/// }
/// ```
public enum CaptureStreamEvent: Sendable {
    case video(SampleBuffer)
    /// A frame exposed and metered, whose pixels no output asked for.
    case metering(CaptureFrameMetadata)
    case audio(CaptureAudioBuffer)
    case interrupted(CaptureInterruptionReason)
    case interruptionEnded
    case failed(DaguerreError)
}
