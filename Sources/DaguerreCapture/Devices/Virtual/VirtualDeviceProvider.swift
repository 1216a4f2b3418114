// The default devices (SPEC C4 and the mapping's "physically based virtual camera as the
// built-in default"): a virtual back camera, front camera and microphone, registered in
// CaptureDeviceRegistry.shared when it is first used.
import DaguerreCore
import DaguerreVirtualCamera

/// The three built-in virtual devices.
///
/// ```swift
/// let back = VirtualDeviceProvider.standard.backCamera
/// back.camera.lux = 50
/// let same = CaptureDevices.default(for: .video, position: .back)   // the same device
/// ```
public final class VirtualDeviceProvider: CaptureDeviceProvider {
    public let backCamera: VirtualCaptureDevice
    public let frontCamera: VirtualCaptureDevice
    public let microphone: VirtualMicrophoneDevice

    /// The process's default devices (seed 0).
    public static let standard: VirtualDeviceProvider? = try? VirtualDeviceProvider(seed: 0)

    public init(seed: UInt64) throws(DaguerreError) {
        backCamera = try VirtualCaptureDevice(profile: .back, position: .back, seed: seed)
        frontCamera = try VirtualCaptureDevice(profile: .front, position: .front, seed: seed &+ 1)
        microphone = try VirtualMicrophoneDevice(seed: seed)
    }

    public var devices: [any CaptureDevice] { [backCamera, frontCamera, microphone] }
}
