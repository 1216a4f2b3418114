// What access is asked for and where it stands (SPEC A1: camera, microphone and photo library
// need explicit authorization).

/// What an app asks access to: the camera (`video`), the microphone (`audio`), or the photo
/// library.
///
/// ```swift
/// let granted = await CaptureAuthorization.shared.requestAccess(for: .video)
/// ```
public enum CaptureAuthorizationMediaType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case video, audio, photoLibrary

    /// The usage-description key that must give a reason for this access (A1).
    public var usageDescriptionKey: UsageDescriptionKey {
        switch self {
        case .video: return .camera
        case .audio: return .microphone
        case .photoLibrary: return .photoLibrary
        }
    }

    /// The media type of devices that need this access (nil for the photo library).
    public var deviceMediaType: CaptureMediaType? {
        switch self {
        case .video: return .video
        case .audio: return .audio
        case .photoLibrary: return nil
        }
    }

    public init(_ mediaType: CaptureMediaType) {
        self = mediaType == .video ? .video : .audio
    }

    public var description: String {
        switch self {
        case .video: return "camera"
        case .audio: return "microphone"
        case .photoLibrary: return "photo library"
        }
    }
}

/// Where an app's access stands (AVAuthorizationStatus).
/// - `notDetermined`: not decided yet; ``CaptureAuthorization/requestAccess(for:)`` asks.
/// - `restricted`: the policy forbids it and the user cannot change that.
/// - `denied`: refused.
/// - `authorized`: granted.
///
/// ```swift
/// if CaptureAuthorization.shared.authorizationStatus(for: .audio) == .denied { hideRecordButton() }
/// ```
public enum CaptureAuthorizationStatus: String, Sendable, Hashable, CaseIterable {
    case notDetermined, restricted, denied, authorized
}
