// The camera or microphone interface every capture device implements: the virtual camera, the
// tests' fakes, and later real cameras (SPEC C4 and the "camera hardware becomes a device
// interface" mapping). Everything in it is public so another module can conform.
import DaguerreCore

/// A camera or microphone (AVCaptureDevice), as a protocol.
///
/// A device lists its ``formats`` and has one ``activeFormat``; each format lists the colour
/// spaces it supports and the device streams in its ``activeColorSpace`` (C4, W2). Setters
/// throw ``DaguerreError`` when the value is not one the device offers, instead of trapping.
/// Between ``startStreaming(clock:handler:)`` and ``stopStreaming()`` the device delivers
/// ``CaptureStreamEvent``s: `.video(SampleBuffer)` from cameras, `.audio(CaptureAudioBuffer)`
/// from microphones, timed by the ``CaptureClock`` it is given.
///
/// Implementing one outside this module: store a ``CaptureDeviceControls`` and forward the
/// format, colour, exposure and white-balance requirements to it (it validates and is
/// thread-safe), and drive frames with a ``CaptureClockTicker``. Register the device, or a
/// provider of devices, with ``CaptureDeviceRegistry/register(_:)``.
///
/// Contract for implementers:
/// - Frames are stamped with the clock's time, carry the ``activeColorSpace`` they were made
///   in, and have the active format's dimensions and pixel format.
/// - `startStreaming` throws if the device cannot stream (already streaming for another
///   session, say); `stopStreaming` is idempotent, and after it returns no new handler call
///   begins. (The session also ignores events from a stream it has stopped.)
/// - The handler must not be called while the device holds a lock that its own setters take.
///
/// ```swift
/// guard let camera = CaptureDevices.default(for: .video, position: .back) else { return }
/// if let wide = camera.formats.last(where: { $0.isWideColorSupported }) {
///     try camera.setActiveFormat(wide)
///     try camera.setActiveColorSpace(.p3D65)
/// }
/// try camera.setCustomExposure(duration: 1.0 / 120, iso: 200)
/// ```
public protocol CaptureDevice: AnyObject, Sendable {
    /// Stable across runs for the same device.
    var uniqueID: String { get }
    /// A name for people ("Back Camera").
    var localizedName: String { get }
    /// Defaults to `.builtInWideAngleCamera` for cameras and `.builtInMicrophone` for microphones.
    var deviceType: CaptureDeviceType { get }
    var mediaType: CaptureMediaType { get }
    var position: CaptureDevicePosition { get }
    /// Whether the device makes its data up (the virtual camera) rather than sensing the world.
    /// Authorization policies may treat such devices differently (``AuthorizationPolicy``).
    /// Defaults to false.
    var isVirtual: Bool { get }

    /// Every format the device can capture in.
    var formats: [CaptureDeviceFormat] { get }
    /// The format the device streams in; always one of ``formats``.
    var activeFormat: CaptureDeviceFormat { get }
    /// Makes `format` active. Throws unless it is one of ``formats``. A colour space the new
    /// format does not support falls back to sRGB.
    func setActiveFormat(_ format: CaptureDeviceFormat) throws(DaguerreError)
    /// The colour space frames are made in.
    var activeColorSpace: CaptureColorSpace { get }
    /// Throws unless the active format lists `colorSpace` in its supported colour spaces (W2).
    func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(DaguerreError)

    var hasFlash: Bool { get }
    var isLensStabilizationSupported: Bool { get }

    var exposure: CaptureExposure { get }
    /// `.auto` and `.locked` always work; `.custom` keeps the current ISO and duration.
    func setExposureMode(_ mode: CaptureExposureMode) throws(DaguerreError)
    /// Switches to `.custom` with this duration (seconds) and ISO. Throws unless both are within
    /// the active format's ``CaptureDeviceFormat/exposureDurationRange`` and ``CaptureDeviceFormat/isoRange``.
    func setCustomExposure(duration: Double, iso: Double) throws(DaguerreError)

    var whiteBalance: CaptureWhiteBalance { get }
    /// The largest white-balance gain the device accepts (gains run from 1 to this).
    var maxWhiteBalanceGain: Double { get }
    func setWhiteBalanceMode(_ mode: CaptureWhiteBalanceMode) throws(DaguerreError)
    /// Locks white balance at `gains`. Throws unless each gain is within 1 ... ``maxWhiteBalanceGain``.
    func setWhiteBalanceGains(_ gains: CaptureWhiteBalanceGains) throws(DaguerreError)

    /// Starts delivering events to `handler`, timed by `clock`, on a thread of the device's (or
    /// the clock's) choosing.
    func startStreaming(clock: any CaptureClock, handler: @escaping @Sendable (CaptureStreamEvent) -> Void) throws(DaguerreError)
    /// Stops the stream. Idempotent; no new handler call begins after it returns.
    func stopStreaming()

    /// Whether any output takes the frames' pixels; the session says so before it starts the
    /// stream and whenever its outputs change. A camera may then skip making pixels nobody
    /// looks at and send `.metering` events instead (a sensor still meters, and keeps its
    /// frames for zero shutter lag). The default ignores it.
    func setFramePixelsWanted(_ wanted: Bool)
    /// What the outputs need of the frames' pixels, in more detail: a camera that can read out
    /// smaller frames at a lower rate (for a Live Photo's buffer, L2) may do so. The default
    /// passes on whether any pixels are wanted.
    func setFramePixelDemand(_ demand: FramePixelDemand)
}

extension CaptureDevice {
    public var deviceType: CaptureDeviceType {
        mediaType == .audio ? .builtInMicrophone : .builtInWideAngleCamera
    }
    public var isVirtual: Bool { false }
    public func setFramePixelsWanted(_ wanted: Bool) {}
    public func setFramePixelDemand(_ demand: FramePixelDemand) { setFramePixelsWanted(demand.wantsPixels) }
}
