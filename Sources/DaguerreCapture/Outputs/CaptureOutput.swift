// The common base of everything that receives data from a session (SPEC C1, C2): its
// connections, the media it accepts, and the hooks the session calls.
import DaguerreCore
import Synchronization

/// An output of a capture session (AVCaptureOutput): ``VideoDataOutput``, ``PreviewSink``,
/// ``MovieFileOutput`` and ``PhotoOutput``. Not subclassable outside this module.
///
/// ```swift
/// let output = VideoDataOutput()
/// try session.addOutput(output)
/// output.connection(with: .video)?.videoOrientation = .portrait
/// ```
///
/// Sendable: every stored property, here and in the subclasses, is a `let` of a Sendable type
/// or state inside a `Mutex`; the compiler cannot check that for a non-final class, hence
/// `@unchecked`.
public class CaptureOutput: @unchecked Sendable {
    /// What kind of output this is, for the session's rules (W3 looks at it).
    enum Role: Sendable { case photo, stillImage, preview, movieFile, videoData }

    let role: Role
    let acceptedMediaTypes: Set<CaptureMediaType>
    let owner = Mutex<WeakSession>(WeakSession(nil))

    init(role: Role, acceptedMediaTypes: Set<CaptureMediaType>) {
        self.role = role
        self.acceptedMediaTypes = acceptedMediaTypes
    }

    /// The output's connections in its session (none outside a session).
    public var connections: [CaptureConnection] {
        guard let session = owner.withLock({ $0.session }) else { return [] }
        return session.connections.filter { $0.output === self }
    }

    /// The first connection carrying `mediaType`.
    public func connection(with mediaType: CaptureMediaType) -> CaptureConnection? {
        connections.first { $0.mediaType == mediaType }
    }

    /// The type's name, for messages.
    var displayName: String { String(describing: type(of: self)) }

    var session: CaptureSession? { owner.withLock { $0.session } }

    // MARK: Hooks the session calls (on the device's delivery thread for frames and audio; the
    // run-state hooks with the session's lock held, so they must not call back into it).

    /// What the output needs of the pixels of the frames it is sent: all of them, unless it says
    /// otherwise (the photo output uses only their facts, and small frames for Live Photos).
    var framePixelDemand: FramePixelDemand { .full }

    func deliver(frame: SampleBuffer, from connection: CaptureConnection) {}
    /// A frame's facts, sent for every frame (`.video` ones included, before them).
    func deliver(metering: CaptureFrameMetadata, from connection: CaptureConnection) {}
    func deliver(audio: CaptureAudioBuffer, from connection: CaptureConnection) {}
    func sessionDidStartRunning() {}
    func sessionDidStopRunning() {}
    /// After every committed change of the session's configuration (called with the session's
    /// lock held: an output must not call back into the session from here).
    func sessionDidCommitConfiguration() {}
}
