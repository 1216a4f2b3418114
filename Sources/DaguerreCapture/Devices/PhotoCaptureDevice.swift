// What a camera must do for photos (SPEC P1, P10, P13, R2, C5, Q1), beside streaming: say what
// it can, keep its newest frames for zero shutter lag, expose new stills (brackets, flash,
// bursts), meter a pre-flash and prepare its still resources. Stills are exposed at once and
// read out later (`SensorStill`), so that a queue of requests holds no pixels: a real device's
// still holds its buffer; the virtual camera's holds the frame's description and renders it
// when read, with the same result.
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
    /// The full-resolution sensor size.
    public var sensorDimensions: CaptureDimensions
    /// The ISO and exposure-duration range of stills.
    public var isoRange: ClosedRange<Double>
    public var exposureDurationRange: ClosedRange<Double>
    /// The range of auto-exposure bracket biases, in stops.
    public var exposureTargetBiasRange: ClosedRange<Double>

    public init(
        rawPixelFormatTypes: [PixelFormatType], isStillImageStabilizationSupported: Bool, maxBracketedCapturePhotoCount: Int,
        sensorDimensions: CaptureDimensions, isoRange: ClosedRange<Double>, exposureDurationRange: ClosedRange<Double>,
        exposureTargetBiasRange: ClosedRange<Double> = -8...8
    ) {
        self.rawPixelFormatTypes = rawPixelFormatTypes
        self.isStillImageStabilizationSupported = isStillImageStabilizationSupported
        self.maxBracketedCapturePhotoCount = maxBracketedCapturePhotoCount
        self.sensorDimensions = sensorDimensions
        self.isoRange = isoRange
        self.exposureDurationRange = exposureDurationRange
        self.exposureTargetBiasRange = exposureTargetBiasRange
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

/// A still the sensor has exposed, read out when the photo is processed.
///
/// ```swift
/// let still = try camera.exposeStills([StillExposure(duration: 1.0 / 60, iso: 200)], dimensions: size, whiteBalance: nil, lensStabilization: nil)[0]
/// print(still.metadata.timestamp)          // known at once
/// let raw = try still.read()               // the Bayer sample buffer, later
/// ```
public struct SensorStill: Sendable {
    /// The exposure's facts: its start on the session clock, duration, ISO, gains, light.
    public let metadata: CaptureFrameMetadata
    public let dimensions: CaptureDimensions
    private let readOut: @Sendable () throws(DaguerreError) -> SampleBuffer

    public init(
        metadata: CaptureFrameMetadata, dimensions: CaptureDimensions,
        readOut: @escaping @Sendable () throws(DaguerreError) -> SampleBuffer
    ) {
        self.metadata = metadata
        self.dimensions = dimensions
        self.readOut = readOut
    }

    /// The RAW still: a `.bayer` sample buffer at ``dimensions`` with its `rawCalibration` and
    /// `photoMetadata`, stamped with the exposure's time.
    public func read() throws(DaguerreError) -> SampleBuffer { try readOut() }
}

/// A frame of the stream as a camera keeps it for zero shutter lag.
///
/// ```swift
/// let newest = camera.zeroShutterLagFrames().last(where: \.isSettled)
/// let still = try newest?.still(dimensions: CaptureDimensions(width: 4032, height: 3024))
/// ```
public struct ZeroShutterLagFrame: Sendable {
    public let metadata: CaptureFrameMetadata
    /// Whether exposure and white balance had settled when it was exposed.
    public let isSettled: Bool
    /// When the middle of the picture was seen: the middle row's mid-exposure, on the session's
    /// clock (a rolling shutter reads the middle row half a readout after the first).
    public let sceneTime: Double
    private let makeStill: @Sendable (CaptureDimensions) throws(DaguerreError) -> SensorStill

    /// A kept frame; `readoutDuration` is the rolling shutter's first-to-last-row time (0 for a
    /// global shutter).
    public init(
        metadata: CaptureFrameMetadata, isSettled: Bool, readoutDuration: Double = 0,
        still: @escaping @Sendable (CaptureDimensions) throws(DaguerreError) -> SensorStill
    ) {
        self.metadata = metadata
        self.isSettled = isSettled
        sceneTime = metadata.timestamp + readoutDuration / 2 + metadata.exposureDuration / 2
        makeStill = still
    }

    /// The frame as a still at `dimensions` (a still size of the format it was streamed in).
    public func still(dimensions: CaptureDimensions) throws(DaguerreError) -> SensorStill { try makeStill(dimensions) }
}

/// A camera that takes photos (AVCapturePhotoOutput's view of its device).
///
/// Contract for implementers: while the device streams it keeps its newest frames (at least
/// three), recorded before the frame's event is sent; ``exposeStills(_:dimensions:whiteBalance:lensStabilization:)``
/// exposes new frames after the newest one without moving the auto-exposure or white-balance
/// loops; stills may be read out on any thread, in any order, after the stream has moved on.
public protocol PhotoCaptureDevice: CaptureDevice {
    var photoCapabilities: PhotoDeviceCapabilities { get }
    /// The kept frames, oldest first.
    func zeroShutterLagFrames() -> [ZeroShutterLagFrame]
    /// New stills at `dimensions`, one per exposure, exposed one after another after the newest
    /// frame, with `whiteBalance` (the stream's when nil), the lens stabilized or not as
    /// `lensStabilization` says (as the stream is when nil; a bracket sets it, P10).
    func exposeStills(
        _ exposures: [StillExposure], dimensions: CaptureDimensions, whiteBalance: CaptureWhiteBalanceGains?, lensStabilization: Bool?
    ) throws(DaguerreError) -> [SensorStill]
    /// Fires a pre-flash and meters it (P13): the main exposure, with the flash's power (0…1)
    /// that brings the subject to the exposure target.
    func meterFlash() throws(DaguerreError) -> StillExposure
    /// Gets what stills at `dimensions` need ready (Q1), so that the first photo is not slow.
    func preparePhotoResources(dimensions: [CaptureDimensions]) throws(DaguerreError)
    /// The rolling shutter's first-to-last-row time of the stream's frames (0: a global shutter),
    /// so that a frame's scene time is its middle row's.
    var streamReadoutDuration: Double { get }
}

extension PhotoCaptureDevice {
    public var streamReadoutDuration: Double { 0 }

    /// When the middle of a stream frame's picture was seen: its middle row's mid-exposure.
    func sceneTime(of metadata: CaptureFrameMetadata) -> Double {
        metadata.timestamp + streamReadoutDuration / 2 + metadata.exposureDuration / 2
    }
}
