// Finding devices by type, media and position (SPEC C4; AVCaptureDevice.DiscoverySession and
// AVCaptureDevice.default(_:for:position:)).

/// The devices of the registry that match some device types, a media type and a position
/// (AVCaptureDevice.DiscoverySession). ``devices`` is re-evaluated on every read, so it follows
/// devices as they are registered and removed.
///
/// ```swift
/// let discovery = CaptureDeviceDiscoverySession(deviceTypes: [.builtInWideAngleCamera, .builtInDualCamera],
///                                               mediaType: .video, position: .unspecified)
/// for camera in discovery.devices { print(camera.localizedName, camera.position) }
/// ```
public struct CaptureDeviceDiscoverySession: Sendable {
    /// Empty: any type.
    public let deviceTypes: [CaptureDeviceType]
    /// Nil: any media type.
    public let mediaType: CaptureMediaType?
    /// `.unspecified`: any position.
    public let position: CaptureDevicePosition
    public let registry: CaptureDeviceRegistry

    public init(
        deviceTypes: [CaptureDeviceType], mediaType: CaptureMediaType?, position: CaptureDevicePosition,
        registry: CaptureDeviceRegistry = .shared
    ) {
        self.deviceTypes = deviceTypes
        self.mediaType = mediaType
        self.position = position
        self.registry = registry
    }

    /// The matching devices, in registration order.
    public var devices: [any CaptureDevice] {
        registry.devices.filter { device in
            (deviceTypes.isEmpty || deviceTypes.contains(device.deviceType))
                && (mediaType == nil || device.mediaType == mediaType)
                && (position == .unspecified || device.position == position)
        }
    }
}

/// Default-device look-ups (AVCaptureDevice.default(for:) and default(_:for:position:)); a
/// namespace because a protocol cannot have static members callable on itself.
///
/// ```swift
/// let camera = CaptureDevices.default(for: .video, position: .back)
/// let mic = CaptureDevices.default(for: .audio)
/// ```
public enum CaptureDevices {
    /// The first matching device in registration order. With position `.unspecified`, a
    /// back camera is preferred, as on iOS, when one matches.
    public static func `default`(
        _ deviceType: CaptureDeviceType? = nil, for mediaType: CaptureMediaType,
        position: CaptureDevicePosition = .unspecified,
        registry: CaptureDeviceRegistry = .shared
    ) -> (any CaptureDevice)? {
        let matches = CaptureDeviceDiscoverySession(
            deviceTypes: deviceType.map { [$0] } ?? [], mediaType: mediaType,
            position: position, registry: registry
        ).devices
        if position == .unspecified, let back = matches.first(where: { $0.position == .back }) { return back }
        return matches.first
    }
}
