// Who decides access: the hook through which an app asks its user, and the built-in policies,
// including the explicit default for virtual devices (SPEC A1).
import DaguerreCore

/// One request for access, as a policy sees it.
///
/// ```swift
/// let policy: any AuthorizationPolicy = .ask { request in
///     request.devices.allSatisfy(\.isVirtual) ? .granted : .denied
/// }
/// ```
public struct AuthorizationRequest: Sendable {
    public let mediaType: CaptureAuthorizationMediaType
    /// The app's declared reason (never empty: requests without one are refused before a
    /// policy sees them).
    public let usageDescription: String
    /// The devices the access concerns: the one device when a ``CaptureDeviceInput`` is being
    /// made, else every registered device of the media type (empty for the photo library).
    public let devices: [any CaptureDevice]

    public init(mediaType: CaptureAuthorizationMediaType, usageDescription: String, devices: [any CaptureDevice]) {
        self.mediaType = mediaType
        self.usageDescription = usageDescription
        self.devices = devices
    }
}

/// A policy's answer.
///
/// ```swift
/// let policy = FixedAuthorizationPolicy(.restricted)
/// ```
public enum AuthorizationDecision: String, Sendable, Hashable {
    case granted, denied, restricted

    var status: CaptureAuthorizationStatus {
        switch self {
        case .granted: return .authorized
        case .denied: return .denied
        case .restricted: return .restricted
        }
    }
}

/// Decides requests for access (the iOS permission prompt's place). Asked at most once per
/// media type per ``CaptureAuthorization``; the answer is remembered.
///
/// ``decide(_:)`` may take its time (show a dialog, ask over a socket). ``immediateDecision(for:)``
/// is for answers that need nobody: it lets the synchronous `CaptureDeviceInput(device:)` go
/// ahead without a prior `requestAccess`; return nil (the default) to require asking.
///
/// Built in: ``grantVirtualDevices`` (the default), ``grantAll``, ``denyAll``, and ``ask(_:)``.
///
/// ```swift
/// let authorization = CaptureAuthorization(
///     usageDescriptions: UsageDescriptions(camera: "To take photos."),
///     policy: .ask { request in
///         await ui.confirm("Allow \(request.mediaType)? \(request.usageDescription)") ? .granted : .denied
///     })
/// ```
public protocol AuthorizationPolicy: Sendable {
    func decide(_ request: AuthorizationRequest) async -> AuthorizationDecision
    func immediateDecision(for request: AuthorizationRequest) -> AuthorizationDecision?
}

extension AuthorizationPolicy {
    public func immediateDecision(for request: AuthorizationRequest) -> AuthorizationDecision? { nil }
}

/// The default policy: grants camera and microphone access without asking when every device the
/// request concerns is virtual (``CaptureDevice/isVirtual``: its pictures and sound are
/// synthesized, so there is no one's privacy to protect) and denies everything else, real
/// devices and the photo library included. A usage description is still required (A1).
/// Apps with real devices choose ``AuthorizationPolicy/ask(_:)`` or another policy.
///
/// ```swift
/// let authorization = CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "To take photos."),
///                                          policy: .grantVirtualDevices)
/// ```
public struct GrantVirtualDevicesPolicy: AuthorizationPolicy {
    public init() {}
    public func decide(_ request: AuthorizationRequest) async -> AuthorizationDecision { rule(request) }
    public func immediateDecision(for request: AuthorizationRequest) -> AuthorizationDecision? { rule(request) }

    private func rule(_ request: AuthorizationRequest) -> AuthorizationDecision {
        guard request.mediaType != .photoLibrary else { return .denied }
        return request.devices.allSatisfy(\.isVirtual) ? .granted : .denied
    }
}

/// The same answer to every request.
///
/// ```swift
/// CaptureAuthorization.shared.setPolicy(.denyAll)      // a kiosk build: no camera
/// ```
public struct FixedAuthorizationPolicy: AuthorizationPolicy {
    public let decision: AuthorizationDecision
    public init(_ decision: AuthorizationDecision) { self.decision = decision }
    public func decide(_ request: AuthorizationRequest) async -> AuthorizationDecision { decision }
    public func immediateDecision(for request: AuthorizationRequest) -> AuthorizationDecision? { decision }
}

/// Asks a closure: the app's way to ask its user. Never answers immediately, so inputs need a
/// granted ``CaptureAuthorization/requestAccess(for:)`` first.
///
/// ```swift
/// CaptureAuthorization.shared.setPolicy(.ask { request in
///     await prompt("Allow the \(request.mediaType)? \(request.usageDescription)") ? .granted : .denied
/// })
/// ```
public struct AskAuthorizationPolicy: AuthorizationPolicy {
    let ask: @Sendable (AuthorizationRequest) async -> AuthorizationDecision
    public init(_ ask: @escaping @Sendable (AuthorizationRequest) async -> AuthorizationDecision) { self.ask = ask }
    public func decide(_ request: AuthorizationRequest) async -> AuthorizationDecision { await ask(request) }
}

extension AuthorizationPolicy where Self == GrantVirtualDevicesPolicy {
    /// Virtual devices granted, everything else denied (the default; see ``GrantVirtualDevicesPolicy``).
    public static var grantVirtualDevices: GrantVirtualDevicesPolicy { GrantVirtualDevicesPolicy() }
}

extension AuthorizationPolicy where Self == FixedAuthorizationPolicy {
    /// Every request with a usage description is granted.
    public static var grantAll: FixedAuthorizationPolicy { FixedAuthorizationPolicy(.granted) }
    /// Every request is denied.
    public static var denyAll: FixedAuthorizationPolicy { FixedAuthorizationPolicy(.denied) }
}

extension AuthorizationPolicy where Self == AskAuthorizationPolicy {
    /// Asks `closure` (once per media type).
    public static func ask(_ closure: @escaping @Sendable (AuthorizationRequest) async -> AuthorizationDecision) -> AskAuthorizationPolicy {
        AskAuthorizationPolicy(closure)
    }
}
