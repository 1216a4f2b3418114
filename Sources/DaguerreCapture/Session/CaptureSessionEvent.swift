// What a session tells observers about its life: running, stopping, errors, interruptions and
// pipeline rebuilds (SPEC C1, C6; the mapping's "key-value observing becomes AsyncStream").
import DaguerreCore

/// Why a running session tore its capture pipeline down and built it again (C6: a disruptive
/// reconfiguration; frames pause while it happens).
///
/// ```swift
/// if case .pipelineRebuilt(.photoOutputOptionChanged(let name)) = event {
///     print("set \(name) before startRunning to avoid this")
/// }
/// ```
public enum CapturePipelineRebuildReason: Sendable, Hashable {
    /// A pipeline-shaping option of a photo output changed while running (the option's name:
    /// `isHighResolutionCaptureEnabled`, `isLivePhotoCaptureEnabled`).
    case photoOutputOptionChanged(String)
    /// Inputs were added or removed while running.
    case inputsChanged
    /// The camera's active format changed (a new preset, say).
    case activeFormatChanged(CaptureDeviceFormat)
    /// The camera's colour space changed (the wide-colour rule W3 chose another).
    case colorSpaceChanged(CaptureColorSpace)
}

/// A session notification (AVCaptureSession's notifications), delivered through
/// ``CaptureSession/events()`` and ``CaptureSession/setEventHandler(queue:_:)``.
///
/// ```swift
/// Task {
///     for await event in session.events() {
///         if case let .runtimeError(error) = event { print(error.message) }
///     }
/// }
/// ```
public enum CaptureSessionEvent: Sendable, Equatable {
    case didStartRunning
    case didStopRunning
    /// A device or output failed while running; the session stops after reporting it.
    case runtimeError(DaguerreError)
    case wasInterrupted(CaptureInterruptionReason)
    case interruptionEnded
    case pipelineRebuilt(CapturePipelineRebuildReason)
}
