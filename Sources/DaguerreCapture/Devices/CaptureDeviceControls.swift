// The validated, thread-safe state behind a device's settable properties (SPEC C4), so every
// device implementation, in this module or another, enforces the same rules.
import DaguerreCore
import Synchronization

/// A device's formats and its settable state (active format and colour space, exposure, white
/// balance), with every rule of ``CaptureDevice``'s setters built in.
///
/// Devices store one and conform to ``ControlledCaptureDevice``, which forwards the protocol's
/// requirements to it; their stream reads it for each frame. Safe from any thread (one mutex).
///
/// Rules:
/// - the active format must be one of ``formats`` (all of one media type);
/// - the active colour space must be in the active format's supported colour spaces; changing
///   format falls back to sRGB when the new format lacks the current space;
/// - custom exposure within the active format's ISO and duration ranges (custom values are
///   clamped into a new format's ranges when the format changes);
/// - white-balance gains within 1 ... ``maxWhiteBalanceGain``;
/// - audio devices have no exposure or white balance: those setters throw `.unsupported`.
///
/// ```swift
/// final class MyCamera: ControlledCaptureDevice {
///     let controls: CaptureDeviceControls
///     init() throws(DaguerreError) {
///         controls = try CaptureDeviceControls(formats: try CaptureDeviceFormat.videoRangePair(width: 1920, height: 1080, wideColor: true))
///     }
///     // identity, capabilities and the stream; formats, exposure and white balance come from `controls`
/// }
/// ```
public final class CaptureDeviceControls: Sendable {
    private struct State: Sendable {
        var activeFormat: CaptureDeviceFormat
        var activeColorSpace: CaptureColorSpace = .sRGB
        var exposure: CaptureExposure
        var whiteBalance = CaptureWhiteBalance()
    }

    public let formats: [CaptureDeviceFormat]
    public let mediaType: CaptureMediaType
    public let maxWhiteBalanceGain: Double
    /// A name for error messages ("Back Camera").
    public let deviceName: String
    private let state: Mutex<State>

    /// Throws when `formats` is empty or mixes media types, when `activeFormat` is not among
    /// them, or when `maxWhiteBalanceGain` is below 1. The active format defaults to the first.
    public init(
        formats: [CaptureDeviceFormat], activeFormat: CaptureDeviceFormat? = nil,
        maxWhiteBalanceGain: Double = 4, deviceName: String = "Capture device"
    ) throws(DaguerreError) {
        guard let first = formats.first else {
            throw .invalidArgument(what: "\(deviceName)'s formats", problem: "a device needs at least one format")
        }
        guard formats.allSatisfy({ $0.mediaType == first.mediaType }) else {
            throw .invalidArgument(what: "\(deviceName)'s formats", problem: "mix video and audio; a device captures one media type")
        }
        guard maxWhiteBalanceGain >= 1, maxWhiteBalanceGain.isFinite else {
            throw .invalidArgument(what: "Maximum white-balance gain \(maxWhiteBalanceGain)", problem: "must be at least 1")
        }
        let active = activeFormat ?? first
        guard formats.contains(active) else {
            throw .invalidArgument(what: "\(deviceName)'s initial active format \(active)", problem: "is not one of its formats")
        }
        self.formats = formats
        self.mediaType = first.mediaType
        self.maxWhiteBalanceGain = maxWhiteBalanceGain
        self.deviceName = deviceName
        let iso = min(max(100, active.isoRange.lowerBound), active.isoRange.upperBound)
        let duration = min(max(1.0 / 60, active.exposureDurationRange.lowerBound), active.exposureDurationRange.upperBound)
        state = Mutex(State(activeFormat: active, exposure: CaptureExposure(mode: .auto, iso: iso, duration: duration)))
    }

    public var activeFormat: CaptureDeviceFormat { state.withLock { $0.activeFormat } }
    public var activeColorSpace: CaptureColorSpace { state.withLock { $0.activeColorSpace } }
    public var exposure: CaptureExposure { state.withLock { $0.exposure } }
    public var whiteBalance: CaptureWhiteBalance { state.withLock { $0.whiteBalance } }

    /// Everything a stream needs for one frame, read atomically.
    public var snapshot:
        (format: CaptureDeviceFormat, colorSpace: CaptureColorSpace, exposure: CaptureExposure, whiteBalance: CaptureWhiteBalance)
    {
        state.withLock { ($0.activeFormat, $0.activeColorSpace, $0.exposure, $0.whiteBalance) }
    }

    public func setActiveFormat(_ format: CaptureDeviceFormat) throws(DaguerreError) {
        guard formats.contains(format) else {
            throw .captureConfiguration(
                problem: "the format \(format) is not one of \(deviceName)'s formats",
                fix: "Pick the format from the device's own formats list (device.formats).")
        }
        state.withLock { s in
            s.activeFormat = format
            if !format.supportedColorSpaces.contains(s.activeColorSpace) { s.activeColorSpace = .sRGB }
            s.exposure.iso = min(max(s.exposure.iso, format.isoRange.lowerBound), format.isoRange.upperBound)
            s.exposure.duration = min(
                max(s.exposure.duration, format.exposureDurationRange.lowerBound), format.exposureDurationRange.upperBound)
        }
    }

    public func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(DaguerreError) {
        try state.withLock { (s) throws(DaguerreError) in
            guard s.activeFormat.supportedColorSpaces.contains(colorSpace) else {
                throw .captureConfiguration(
                    problem:
                        "\(deviceName)'s active format \(s.activeFormat) supports only \(s.activeFormat.supportedColorSpaces.map(\.description).joined(separator: ", ")), not \(colorSpace)",
                    fix:
                        "First make a format active whose supportedColorSpaces include it: on a wide-colour camera, a 420f format (SPEC W2, W4)."
                )
            }
            s.activeColorSpace = colorSpace
        }
    }

    public func setExposureMode(_ mode: CaptureExposureMode) throws(DaguerreError) {
        try requireVideo("Exposure")
        state.withLock { $0.exposure.mode = mode }
    }

    public func setCustomExposure(duration: Double, iso: Double) throws(DaguerreError) {
        try requireVideo("Exposure")
        try state.withLock { (s) throws(DaguerreError) in
            let f = s.activeFormat
            guard f.exposureDurationRange.contains(duration) else {
                throw .invalidArgument(
                    what: "Exposure duration \(duration) s on \(deviceName)",
                    problem: "the active format allows \(f.exposureDurationRange.lowerBound)...\(f.exposureDurationRange.upperBound) s")
            }
            guard f.isoRange.contains(iso) else {
                throw .invalidArgument(
                    what: "ISO \(iso) on \(deviceName)",
                    problem: "the active format allows ISO \(f.isoRange.lowerBound)...\(f.isoRange.upperBound)")
            }
            s.exposure = CaptureExposure(mode: .custom, iso: iso, duration: duration)
        }
    }

    public func setWhiteBalanceMode(_ mode: CaptureWhiteBalanceMode) throws(DaguerreError) {
        try requireVideo("White balance")
        state.withLock { $0.whiteBalance.mode = mode }
    }

    public func setWhiteBalanceGains(_ gains: CaptureWhiteBalanceGains) throws(DaguerreError) {
        try requireVideo("White balance")
        try gains.validate(maxGain: maxWhiteBalanceGain)
        state.withLock { $0.whiteBalance = CaptureWhiteBalance(mode: .locked, gains: gains) }
    }

    /// For a device's auto-exposure loop: records the values it chose. Ignored unless the mode
    /// is `.auto` (locked and custom exposures hold their values). Values are clamped into the
    /// active format's ranges.
    public func reportAutomaticExposure(duration: Double, iso: Double) {
        state.withLock { s in
            guard s.exposure.mode == .auto else { return }
            let f = s.activeFormat
            s.exposure.iso = min(max(iso, f.isoRange.lowerBound), f.isoRange.upperBound)
            s.exposure.duration = min(max(duration, f.exposureDurationRange.lowerBound), f.exposureDurationRange.upperBound)
        }
    }

    /// For a device's auto-white-balance loop: records the gains it chose (clamped to the valid
    /// range). Ignored unless the mode is `.auto`.
    public func reportAutomaticWhiteBalance(gains: CaptureWhiteBalanceGains) {
        let clamp = { (g: Double) in min(max(g, 1), self.maxWhiteBalanceGain) }
        state.withLock { s in
            guard s.whiteBalance.mode == .auto else { return }
            s.whiteBalance.gains = CaptureWhiteBalanceGains(red: clamp(gains.red), green: clamp(gains.green), blue: clamp(gains.blue))
        }
    }

    private func requireVideo(_ what: String) throws(DaguerreError) {
        guard mediaType == .video else {
            throw .unsupported(
                feature: "\(what) on the audio device \(deviceName)",
                hint: "Exposure and white balance are camera controls; set them on a video device.")
        }
    }
}
