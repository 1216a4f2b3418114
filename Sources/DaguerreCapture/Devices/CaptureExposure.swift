// Exposure and white-balance controls of a camera: modes and the values they run at (SPEC C4;
// the manual values are also what bracketed captures, P10, will ask for).
import DaguerreCore

/// How a camera chooses its exposure.
/// - `auto`: continuous auto-exposure; the device adjusts ISO and duration as the light changes.
/// - `locked`: holds the values auto-exposure last chose.
/// - `custom`: the app's ISO and duration (``CaptureDevice/setCustomExposure(duration:iso:)``).
///
/// ```swift
/// try camera.setExposureMode(.locked)      // hold what auto-exposure chose
/// ```
public enum CaptureExposureMode: String, Sendable, Hashable, CaseIterable {
    case auto, locked, custom
}

/// A camera's exposure state: its mode and the ISO and duration (seconds) it exposes with now.
///
/// ```swift
/// try camera.setCustomExposure(duration: 1.0 / 60, iso: 400)
/// camera.exposure.mode       // .custom
/// camera.exposure.iso        // 400
/// ```
public struct CaptureExposure: Sendable, Hashable {
    public var mode: CaptureExposureMode
    public var iso: Double
    /// Seconds.
    public var duration: Double
    public init(mode: CaptureExposureMode = .auto, iso: Double = 100, duration: Double = 1.0 / 60) {
        self.mode = mode
        self.iso = iso
        self.duration = duration
    }
}

/// How a camera chooses its white balance: `auto` (continuous) or `locked` (held gains, either
/// the last automatic ones or the app's).
///
/// ```swift
/// try camera.setWhiteBalanceMode(.locked)
/// ```
public enum CaptureWhiteBalanceMode: String, Sendable, Hashable, CaseIterable {
    case auto, locked
}

/// A camera's white-balance state: mode and current gains.
///
/// ```swift
/// if camera.whiteBalance.mode == .auto { print(camera.whiteBalance.gains) }
/// ```
public struct CaptureWhiteBalance: Sendable, Hashable {
    public var mode: CaptureWhiteBalanceMode
    public var gains: CaptureWhiteBalanceGains
    public init(mode: CaptureWhiteBalanceMode = .auto, gains: CaptureWhiteBalanceGains = .identity) {
        self.mode = mode
        self.gains = gains
    }
}
