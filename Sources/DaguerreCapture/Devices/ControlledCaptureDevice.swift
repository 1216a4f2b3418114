// Devices whose settable state is a CaptureDeviceControls (SPEC C4): conforming to this gives
// every CaptureDevice requirement about formats, colour space, exposure and white balance, so
// each device (the virtual camera and microphone, a test fake, a real camera later) forwards
// nothing by hand and all enforce the same rules.
import DaguerreCore

/// A ``CaptureDevice`` that keeps its formats and settings in ``controls``; it implements only
/// its identity, capabilities and stream.
///
/// ```swift
/// final class MyCamera: ControlledCaptureDevice {
///     let controls = try CaptureDeviceControls(formats: formats, deviceName: "My Camera")
///     // uniqueID, localizedName, position, hasFlash, isLensStabilizationSupported,
///     // startStreaming(clock:handler:), stopStreaming()
/// }
/// ```
public protocol ControlledCaptureDevice: CaptureDevice {
    var controls: CaptureDeviceControls { get }
}

extension ControlledCaptureDevice {
    public var mediaType: CaptureMediaType { controls.mediaType }
    public var formats: [CaptureDeviceFormat] { controls.formats }
    public var activeFormat: CaptureDeviceFormat { controls.activeFormat }
    public func setActiveFormat(_ format: CaptureDeviceFormat) throws(DaguerreError) { try controls.setActiveFormat(format) }
    public var activeColorSpace: CaptureColorSpace { controls.activeColorSpace }
    public func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(DaguerreError) { try controls.setActiveColorSpace(colorSpace) }
    public var exposure: CaptureExposure { controls.exposure }
    public func setExposureMode(_ mode: CaptureExposureMode) throws(DaguerreError) { try controls.setExposureMode(mode) }
    public func setCustomExposure(duration: Double, iso: Double) throws(DaguerreError) {
        try controls.setCustomExposure(duration: duration, iso: iso)
    }
    public var whiteBalance: CaptureWhiteBalance { controls.whiteBalance }
    public var maxWhiteBalanceGain: Double { controls.maxWhiteBalanceGain }
    public func setWhiteBalanceMode(_ mode: CaptureWhiteBalanceMode) throws(DaguerreError) { try controls.setWhiteBalanceMode(mode) }
    public func setWhiteBalanceGains(_ gains: CaptureWhiteBalanceGains) throws(DaguerreError) { try controls.setWhiteBalanceGains(gains) }
}
