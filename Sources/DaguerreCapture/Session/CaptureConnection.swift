// A link from an input's port to an output (SPEC C1: "connections join them"), created by the
// session when inputs and outputs are committed, with the per-link switches apps use.
import Synchronization

/// How a connection's video is meant to be shown (AVCaptureVideoOrientation).
///
/// ```swift
/// output.connection(with: .video)?.videoOrientation = .portrait
/// ```
public enum CaptureVideoOrientation: String, Sendable, Hashable, CaseIterable {
    case portrait, portraitUpsideDown, landscapeRight, landscapeLeft
}

/// A link from an input port to an output (AVCaptureConnection). The session makes one for
/// every output and every input port whose media type the output accepts, when a configuration
/// is committed, and keeps the same object (with its settings) while both ends stay.
///
/// ``isEnabled`` switches the flow of data on the link. ``videoOrientation`` records how the
/// app wants video shown; frames are not rotated (the pixels stay in sensor orientation), so
/// outputs and apps read it from the connection they get with each frame.
///
/// ```swift
/// if let connection = videoDataOutput.connection(with: .video) {
///     connection.videoOrientation = .portrait
///     connection.isEnabled = true
/// }
/// ```
public final class CaptureConnection: Sendable {
    private struct State: Sendable {
        var isEnabled = true
        var videoOrientation: CaptureVideoOrientation = .landscapeRight
    }

    public let inputPort: CaptureInputPort
    public let output: CaptureOutput
    private let state = Mutex(State())

    init(inputPort: CaptureInputPort, output: CaptureOutput) {
        self.inputPort = inputPort
        self.output = output
    }

    public var mediaType: CaptureMediaType { inputPort.mediaType }

    /// Whether data flows on this connection. Default true.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }

    /// Whether ``videoOrientation`` means anything here (video connections only).
    public var isVideoOrientationSupported: Bool { inputPort.mediaType == .video }

    /// Default `.landscapeRight` (the sensor's natural orientation).
    public var videoOrientation: CaptureVideoOrientation {
        get { state.withLock { $0.videoOrientation } }
        set { state.withLock { $0.videoOrientation = newValue } }
    }
}
