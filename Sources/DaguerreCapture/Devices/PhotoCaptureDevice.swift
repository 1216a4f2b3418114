// What a camera must do for photos (SPEC P1, P10, P13, R2, C5), beside streaming: say what it
// can, keep its newest frames for zero shutter lag, give a kept frame as a full-resolution RAW
// still, expose new stills (brackets, flash, bursts) and meter a pre-flash. A real device keeps
// buffers in its ring; the virtual camera keeps descriptions and renders on demand, with the
// same result.
import DaguerreCore

/// What a camera offers photos.
///
/// ```swift
/// let c = camera.photoCapabilities
/// c.rawPixelFormatTypes          // [.bayer(.rggb)] on the back camera
/// ```
public struct PhotoDeviceCapabilities: Sendable, Hashable {
    /// The RAW formats the sensor delivers (empty: no RAW).
    public var rawPixelFormatTypes: [PixelFormatType]
    /// Whether bursts can be fused (still-image stabilization).
    public var isStillImageStabilizationSupported: Bool
    /// The most images one bracket may have.
    public var maxBracketedCapturePhotoCount: Int
    /// The full-resolution sensor size (the photo size of a full-resolution format).
    public var sensorDimensions: CaptureDimensions

    public init(
        rawPixelFormatTypes: [PixelFormatType], isStillImageStabilizationSupported: Bool, maxBracketedCapturePhotoCount: Int,
        sensorDimensions: CaptureDimensions
    ) {
        self.rawPixelFormatTypes = rawPixelFormatTypes
        self.isStillImageStabilizationSupported = isStillImageStabilizationSupported
        self.maxBracketedCapturePhotoCount = maxBracketedCapturePhotoCount
        self.sensorDimensions = sensorDimensions
    }
}

/// One exposure a photo asks the sensor for.
///
/// ```swift
/// let bracket = StillExposure(duration: 1.0 / 125, iso: 200)
/// let flash = StillExposure(duration: 1.0 / 60, iso: 100, flashPower: 0.4)
/// ```
public struct StillExposure: Sendable, Hashable {
    public var duration: Double
    public var iso: Double
    /// The flash's power (0…1 of its full pulse), or nil for no flash.
    public var flashPower: Double?
    public init(duration: Double, iso: Double, flashPower: Double? = nil) {
        self.duration = duration
        self.iso = iso
        self.flashPower = flashPower
    }
}

/// A camera that takes photos (AVCapturePhotoOutput's view of its device).
///
/// Contract for implementers: while the device streams it keeps its newest frames (at least
/// three) with their metadata; ``rawStill(ofFrame:dimensions:)`` gives any of them as a RAW
/// sample buffer at full resolution, with its colour calibration and photo metadata, stamped
/// with the frame's own time; ``exposeStills(_:dimensions:whiteBalance:)`` exposes new frames
/// after the newest one, without moving the auto-exposure or white-balance loops.
public protocol PhotoCaptureDevice: CaptureDevice {
    var photoCapabilities: PhotoDeviceCapabilities { get }
    /// The kept frames, oldest first. `metadata.sequenceNumber` names a frame for
    /// ``rawStill(ofFrame:dimensions:)``; `isSettled` says whether its exposure and white balance
    /// had settled.
    func zeroShutterLagFrames() -> [(metadata: CaptureFrameMetadata, isSettled: Bool)]
    /// Kept frame `sequenceNumber` as a RAW still at `dimensions` (a full-resolution size of the
    /// sensor): a `.bayer` sample buffer with `rawCalibration` and `photoMetadata`.
    func rawStill(ofFrame sequenceNumber: Int64, dimensions: CaptureDimensions) throws(DaguerreError) -> SampleBuffer
    /// New RAW stills at `dimensions`, one per exposure, exposed one after another after the
    /// newest frame, with `whiteBalance` (the stream's when nil).
    func exposeStills(_ exposures: [StillExposure], dimensions: CaptureDimensions, whiteBalance: CaptureWhiteBalanceGains?)
        throws(DaguerreError) -> [SampleBuffer]
    /// Fires a pre-flash and meters it (P13): the main flash's power, 0…1, for a still at the
    /// stream's exposure.
    func meterFlash() throws(DaguerreError) -> Double
}
