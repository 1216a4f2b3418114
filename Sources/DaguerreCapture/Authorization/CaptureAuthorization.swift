// Camera, microphone and photo-library authorization: declared reasons, a policy that decides,
// and the remembered answers (SPEC A1). An instance, not global state, so tests running in
// parallel each have their own; `shared` is the app's.
import DaguerreCore
import Synchronization

/// An app's access to the camera, microphone and photo library (AVCaptureDevice's
/// `authorizationStatus(for:)` / `requestAccess(for:)`, and the Info.plist usage strings).
///
/// Rules (A1):
/// - Access needs a reason: without the usage description for the media type
///   (`NSCameraUsageDescription`, `NSMicrophoneUsageDescription`, `NSPhotoLibraryUsageDescription`)
///   every request is refused with an error naming the missing key, and the policy is not asked.
/// - With a reason, the ``AuthorizationPolicy`` decides, once per media type; the answer is
///   remembered (``authorizationStatus(for:)``) until ``reset()``.
/// - `CaptureDeviceInput(device:)` calls ``checkAccess(to:)``: an `authorized` media type
///   passes, `denied`/`restricted` throws; while `notDetermined`, the policy's immediate answer
///   for that one device is used (and not remembered, so a virtual device's grant never
///   authorizes a real one), and without one the input throws asking for `requestAccess` first.
///
/// ``shared`` starts with no usage descriptions and the ``GrantVirtualDevicesPolicy``: an app
/// declares its reasons, and virtual devices then work without a prompt.
///
/// ```swift
/// CaptureAuthorization.shared.usageDescriptions = UsageDescriptions(camera: "To take photos.")
/// switch CaptureAuthorization.shared.authorizationStatus(for: .video) {
/// case .authorized: break
/// case .notDetermined: guard await CaptureAuthorization.shared.requestAccess(for: .video) else { return }
/// case .denied, .restricted: return
/// }
/// ```
public final class CaptureAuthorization: Sendable {
    private struct State: Sendable {
        var descriptions: UsageDescriptions
        var policy: any AuthorizationPolicy
        var statuses: [CaptureAuthorizationMediaType: CaptureAuthorizationStatus] = [:]
        var pending: [CaptureAuthorizationMediaType: Task<AuthorizationDecision, Never>] = [:]
    }

    /// The app's authorization: no reasons declared yet, ``GrantVirtualDevicesPolicy``.
    public static let shared = CaptureAuthorization()

    /// Where requests for a whole media type find their devices.
    public let registry: CaptureDeviceRegistry
    private let state: Mutex<State>

    public init(
        usageDescriptions: UsageDescriptions = UsageDescriptions(),
        policy: any AuthorizationPolicy = .grantVirtualDevices,
        registry: CaptureDeviceRegistry = .shared
    ) {
        self.registry = registry
        state = Mutex(State(descriptions: usageDescriptions, policy: policy))
    }

    /// The declared reasons. Changing them does not change decided statuses.
    public var usageDescriptions: UsageDescriptions {
        get { state.withLock { $0.descriptions } }
        set { state.withLock { $0.descriptions = newValue } }
    }

    /// Replaces the policy; decided statuses stay as they are (``reset()`` clears them).
    public func setPolicy(_ policy: any AuthorizationPolicy) {
        state.withLock { $0.policy = policy }
    }

    /// The remembered answer for `mediaType`, or `.notDetermined`.
    public func authorizationStatus(for mediaType: CaptureAuthorizationMediaType) -> CaptureAuthorizationStatus {
        state.withLock { $0.statuses[mediaType] ?? .notDetermined }
    }

    /// Forgets every answer (the user reset the app's privacy settings).
    public func reset() {
        state.withLock { $0.statuses = [:] }
    }

    /// Asks for access if not decided yet and says whether it is granted. False without a
    /// usage description (``requireAccess(for:)`` says why).
    public func requestAccess(for mediaType: CaptureAuthorizationMediaType) async -> Bool {
        do {
            try await requireAccess(for: mediaType)
            return true
        } catch {
            return false
        }
    }

    /// Like ``requestAccess(for:)``, but throws `.captureConfiguration` saying what is missing
    /// (the usage description's key) or that access was denied or is restricted.
    public func requireAccess(for mediaType: CaptureAuthorizationMediaType) async throws(DaguerreError) {
        let key = mediaType.usageDescriptionKey
        guard let reason = usageDescriptions[key] else { throw Self.missingReason(mediaType) }
        let devices = mediaType.deviceMediaType.map { type in registry.devices.filter { $0.mediaType == type } } ?? []
        enum Step {
            case decided(CaptureAuthorizationStatus)
            case wait(Task<AuthorizationDecision, Never>)
        }
        let step: Step = state.withLock { s in
            if let status = s.statuses[mediaType] { return .decided(status) }
            if let task = s.pending[mediaType] { return .wait(task) }
            let policy = s.policy
            let request = AuthorizationRequest(mediaType: mediaType, usageDescription: reason, devices: devices)
            let task = Task { await policy.decide(request) }
            s.pending[mediaType] = task
            return .wait(task)
        }
        let status: CaptureAuthorizationStatus
        switch step {
        case .decided(let decided):
            status = decided
        case .wait(let task):
            let decision = await task.value
            status = state.withLock { s in
                s.pending[mediaType] = nil
                if s.statuses[mediaType] == nil { s.statuses[mediaType] = decision.status }
                return s.statuses[mediaType] ?? decision.status
            }
        }
        guard status == .authorized else { throw Self.refused(mediaType, status) }
    }

    /// Whether `device` may be used now, synchronously (what `CaptureDeviceInput(device:)` calls).
    /// Throws `.captureConfiguration` naming a missing usage description, a refusal, or the need
    /// to call ``requestAccess(for:)`` first.
    public func checkAccess(to device: any CaptureDevice) throws(DaguerreError) {
        let mediaType = CaptureAuthorizationMediaType(device.mediaType)
        let (descriptions, status, policy) = state.withLock { ($0.descriptions, $0.statuses[mediaType], $0.policy) }
        guard let reason = descriptions[mediaType.usageDescriptionKey] else { throw Self.missingReason(mediaType) }
        switch status {
        case .authorized?:
            return
        case let refused? where refused != .notDetermined:
            throw Self.refused(mediaType, refused)
        default:
            let request = AuthorizationRequest(mediaType: mediaType, usageDescription: reason, devices: [device])
            switch policy.immediateDecision(for: request) {
            case .granted?:
                return
            case let decision?:
                throw .captureConfiguration(
                    problem: "the authorization policy refused \(mediaType) access to \(device.localizedName) (\(decision.rawValue))",
                    fix:
                        "Use a policy that grants it (.grantAll, or .ask to let the user decide, then await requestAccess(for: .\(mediaType.rawValue)))."
                )
            case nil:
                throw .captureConfiguration(
                    problem: "\(mediaType) access has not been decided yet, and the authorization policy needs to ask",
                    fix: "await CaptureAuthorization.requestAccess(for: .\(mediaType.rawValue)) before creating the device input.")
            }
        }
    }

    static func missingReason(_ mediaType: CaptureAuthorizationMediaType) -> DaguerreError {
        let key = mediaType.usageDescriptionKey.rawValue
        return .captureConfiguration(
            problem:
                "\(mediaType) access needs a usage description under \(key), and the app declares none, so access is not granted (SPEC A1)",
            fix:
                "Declare why the app needs it: set usageDescriptions (UsageDescriptions(...)) or add \"\(key)\" to the JSON manifest loaded with UsageDescriptions(contentsOf:)."
        )
    }

    static func refused(_ mediaType: CaptureAuthorizationMediaType, _ status: CaptureAuthorizationStatus) -> DaguerreError {
        .captureConfiguration(
            problem: "\(mediaType) access is \(status.rawValue)",
            fix: status == .restricted
                ? "The policy restricts it and the user cannot change that; capture without this device."
                : "The user or the policy refused it; after they change their mind, call reset() and request access again.")
    }
}
