// Where devices come from: a thread-safe list of device providers that discovery, defaults and
// authorization query (SPEC C4 and the mapping's "physically based virtual camera as the
// built-in default"). The shared registry starts with the virtual back camera, front camera and
// microphone (VirtualDeviceProvider); a real camera backend or a test registers more here.
import DaguerreCore
import Synchronization

/// Something that knows a set of devices: a virtual camera rig, a V4L2 scanner, a test fixture.
/// Queried every time devices are listed, so it may add and remove devices as they come and go.
///
/// ```swift
/// struct Rig: CaptureDeviceProvider {
///     let back: any CaptureDevice, mic: any CaptureDevice
///     var devices: [any CaptureDevice] { [back, mic] }
/// }
/// CaptureDeviceRegistry.shared.register(Rig(back: camera, mic: microphone))
/// ```
public protocol CaptureDeviceProvider: Sendable {
    var devices: [any CaptureDevice] { get }
}

/// The devices an app can discover (the hook behind ``CaptureDeviceDiscoverySession`` and
/// ``CaptureDevices/default(_:for:position:registry:)``).
///
/// ``shared`` starts with the virtual back camera, front camera and microphone
/// (``VirtualDeviceProvider``); other providers register with ``register(_:)``. Tests make their own registry so parallel
/// tests never see each other's devices. Devices are listed in registration order; when two
/// providers list the same `uniqueID`, the first registered wins.
///
/// ```swift
/// let registration = CaptureDeviceRegistry.shared.register(VirtualCameraRig())
/// let back = CaptureDevices.default(for: .video, position: .back)
/// CaptureDeviceRegistry.shared.unregister(registration)
/// ```
public final class CaptureDeviceRegistry: Sendable {
    /// A receipt for one registration, to undo it.
    ///
    /// ```swift
    /// let receipt = registry.register(device: camera)
    /// registry.unregister(receipt)
    /// ```
    public struct Registration: Sendable, Hashable {
        let id: UInt64
    }

    private struct Entry: Sendable {
        let id: UInt64
        let provider: any CaptureDeviceProvider
    }

    /// The process-wide registry that ``CaptureDevices`` and ``CaptureAuthorization/shared`` use,
    /// holding the virtual devices from the start.
    public static let shared: CaptureDeviceRegistry = {
        let registry = CaptureDeviceRegistry()
        if let standard = VirtualDeviceProvider.standard { registry.register(standard) }
        return registry
    }()

    private let entries = Mutex<(next: UInt64, list: [Entry])>((1, []))

    public init() {}

    /// Adds a provider; its devices are listed after those of earlier registrations.
    @discardableResult
    public func register(_ provider: any CaptureDeviceProvider) -> Registration {
        entries.withLock { e in
            let id = e.next
            e.next += 1
            e.list.append(Entry(id: id, provider: provider))
            return Registration(id: id)
        }
    }

    /// Adds one device.
    @discardableResult
    public func register(device: any CaptureDevice) -> Registration {
        register(SingleDeviceProvider(device: device))
    }

    /// Removes a registration; unknown registrations are ignored.
    public func unregister(_ registration: Registration) {
        entries.withLock { $0.list.removeAll { $0.id == registration.id } }
    }

    /// Every device, in registration order, without duplicate unique IDs. Providers are asked
    /// outside the registry's lock, so a provider may itself use the registry.
    public var devices: [any CaptureDevice] {
        let providers = entries.withLock { $0.list.map(\.provider) }
        var seen = Set<String>()
        var result: [any CaptureDevice] = []
        for provider in providers {
            for device in provider.devices where seen.insert(device.uniqueID).inserted {
                result.append(device)
            }
        }
        return result
    }

    /// The device with this unique ID, if registered.
    public func device(withUniqueID uniqueID: String) -> (any CaptureDevice)? {
        devices.first { $0.uniqueID == uniqueID }
    }
}

private struct SingleDeviceProvider: CaptureDeviceProvider {
    let device: any CaptureDevice
    var devices: [any CaptureDevice] { [device] }
}
