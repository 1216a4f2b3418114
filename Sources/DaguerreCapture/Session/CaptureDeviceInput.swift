// The session's handle on a device (SPEC C1: "inputs (camera, microphone) feed it"). Creating
// one is where camera and microphone authorization is enforced (SPEC A1).
import DaguerreCore
import Synchronization

/// A device's data as it enters a session (AVCaptureDeviceInput).
///
/// Making one checks authorization (A1) through a ``CaptureAuthorization``: the app must have
/// declared the usage description for the device's media type (`NSCameraUsageDescription`,
/// `NSMicrophoneUsageDescription`), and access must be granted or grantable at once by the
/// policy. Otherwise the initializer throws ``DaguerreError/captureConfiguration(problem:fix:)``
/// naming what is missing.
///
/// An input belongs to at most one session.
///
/// ```swift
/// guard let camera = CaptureDevices.default(for: .video, position: .back) else { return }
/// let input = try CaptureDeviceInput(device: camera)
/// if session.canAddInput(input) { try session.addInput(input) }
/// ```
public final class CaptureDeviceInput: Sendable {
    public let device: any CaptureDevice
    let owner = Mutex<WeakSession>(WeakSession(nil))

    /// Throws when access to the device's media type is not authorized (see above).
    public init(device: any CaptureDevice, authorization: CaptureAuthorization = .shared) throws(DaguerreError) {
        try authorization.checkAccess(to: device)
        self.device = device
    }

    /// The input's one port, carrying the device's media type.
    public var ports: [CaptureInputPort] { [CaptureInputPort(input: self, mediaType: device.mediaType)] }

    var session: CaptureSession? { owner.withLock { $0.session } }
}

/// One stream of an input (AVCaptureInput.Port): the start of a connection.
///
/// ```swift
/// let port = input.ports[0]
/// port.mediaType   // .video
/// ```
public struct CaptureInputPort: Sendable {
    public let input: CaptureDeviceInput
    public let mediaType: CaptureMediaType
}

/// A weak reference to a session that can sit inside a Mutex.
struct WeakSession: Sendable {
    weak var session: CaptureSession?
    init(_ session: CaptureSession?) { self.session = session }
}
