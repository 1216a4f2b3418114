// What a capture device produces, where it sits, and what kind of camera it is (SPEC C1, C4).
// These small vocabularies are shared by devices, discovery, inputs and outputs, so they live
// together.

/// The kind of data a device or connection carries: AVMediaType's `.video` and `.audio`.
///
/// ```swift
/// let camera = CaptureDevices.default(for: .video, position: .back)
/// ```
public enum CaptureMediaType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case video, audio

    public var description: String { rawValue }
}

/// Which way a camera faces (C4): `back` (away from the user), `front` (the selfie camera), or
/// `unspecified` (microphones, external cameras; in queries: any position).
///
/// ```swift
/// let selfie = CaptureDevices.default(for: .video, position: .front)
/// ```
public enum CaptureDevicePosition: String, Sendable, Hashable, CaseIterable {
    case unspecified, back, front
}

/// A device's kind, used to filter discovery (AVCaptureDevice.DeviceType). An open set: a
/// module can declare its own (`CaptureDeviceType(rawValue: "com.example.thermal")`).
///
/// ```swift
/// let wide = CaptureDeviceDiscoverySession(deviceTypes: [.builtInWideAngleCamera],
///                                          mediaType: .video, position: .back)
/// ```
public struct CaptureDeviceType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The general-purpose camera of a position (the default when a device names no type).
    public static let builtInWideAngleCamera = CaptureDeviceType(rawValue: "builtInWideAngleCamera")
    public static let builtInTelephotoCamera = CaptureDeviceType(rawValue: "builtInTelephotoCamera")
    public static let builtInDualCamera = CaptureDeviceType(rawValue: "builtInDualCamera")
    /// The default type of audio devices.
    public static let builtInMicrophone = CaptureDeviceType(rawValue: "builtInMicrophone")
    /// A camera plugged in from outside (a V4L2 webcam, say).
    public static let externalCamera = CaptureDeviceType(rawValue: "externalCamera")

    public var description: String { rawValue }
}
