// The virtual camera as a photo device (SPEC P1, P10, P13, R2, C5): its zero-shutter-lag ring
// keeps frame descriptions (time, exposure, gains, the frame's index in the camera's sequence,
// which fixes its noise), and a frame a photo asks for is rendered then at full resolution,
// exactly as it would have been read out: the same result as keeping 12 MP buffers, without
// rendering 30 of them a second.
import DaguerreCore
import DaguerreVirtualCamera
import Foundation
import Synchronization

/// One frame of the stream as the ring keeps it.
struct KeptFrame: Sendable {
    var metadata: CaptureFrameMetadata
    var frameIndex: UInt64
    var exposure: ExposureSettings
    var gains: SIMD3<Double>
    var isSettled: Bool
}

/// The newest frames of a virtual camera's stream.
final class ZeroShutterLagRing: Sendable {
    static let capacity = 8
    private let frames = Mutex<[KeptFrame]>([])

    /// Records a streamed frame; settled when exposure (duration × gain) and white balance moved
    /// less than 2 % since the frame before.
    func record(_ metadata: CaptureFrameMetadata, frameIndex: UInt64, exposure: ExposureSettings, gains: SIMD3<Double>, analogGain: Double)
    {
        frames.withLock { ring in
            var settled = false
            if let last = ring.last {
                let before = last.exposure.duration * last.metadata.gain
                let now = exposure.duration * analogGain
                let change = (gains - last.gains) / last.gains
                settled = abs(now / before - 1) < 0.02 && max(change.max(), -change.min()) < 0.02
            }
            ring.append(KeptFrame(metadata: metadata, frameIndex: frameIndex, exposure: exposure, gains: gains, isSettled: settled))
            if ring.count > Self.capacity { ring.removeFirst(ring.count - Self.capacity) }
        }
    }

    func clear() { frames.withLock { $0.removeAll() } }
    var all: [KeptFrame] { frames.withLock { $0 } }
}

extension VirtualCaptureDevice: PhotoCaptureDevice {
    public var photoCapabilities: PhotoDeviceCapabilities {
        let s = camera.profile.sensor
        return PhotoDeviceCapabilities(
            rawPixelFormatTypes: position == .back ? [.bayer(s.pattern)] : [], isStillImageStabilizationSupported: true,
            maxBracketedCapturePhotoCount: 3, sensorDimensions: CaptureDimensions(width: s.width, height: s.height))
    }

    public func zeroShutterLagFrames() -> [(metadata: CaptureFrameMetadata, isSettled: Bool)] {
        ring.all.map { ($0.metadata, $0.isSettled) }
    }

    public func rawStill(ofFrame sequenceNumber: Int64, dimensions: CaptureDimensions) throws(DaguerreError) -> SampleBuffer {
        guard let kept = ring.all.first(where: { $0.metadata.sequenceNumber == sequenceNumber }) else {
            throw .invalidArgument(what: "frame \(sequenceNumber) of \(localizedName)", problem: "is no longer kept for zero shutter lag")
        }
        let raw = try camera.captureStill(
            mode: try stillMode(dimensions), at: kept.metadata.timestamp, exposure: kept.exposure, whiteBalanceGains: kept.gains,
            frameIndex: kept.frameIndex)
        return still(raw, sequenceNumber: sequenceNumber)
    }

    public func exposeStills(_ exposures: [StillExposure], dimensions: CaptureDimensions, whiteBalance: CaptureWhiteBalanceGains?)
        throws(DaguerreError) -> [SampleBuffer]
    {
        let mode = try stillMode(dimensions)
        let newest = ring.all.last
        let interval = 1 / activeFormat.frameRateRange.maxFrameRate
        var time = (newest?.metadata.timestamp ?? 0) + interval
        let gains = whiteBalance.map { SIMD3($0.red, $0.green, $0.blue) / $0.green } ?? newest?.gains ?? camera.currentWhiteBalanceGains
        var stills: [SampleBuffer] = []
        for (k, e) in exposures.enumerated() {
            let raw = try camera.captureStill(
                mode: mode, at: time, exposure: ExposureSettings(duration: e.duration, iso: e.iso), whiteBalanceGains: gains,
                flashPower: e.flashPower)
            stills.append(still(raw, sequenceNumber: -1 - Int64(k)))
            time += max(interval, e.duration)
        }
        return stills
    }

    public func meterFlash() throws(DaguerreError) -> Double {
        guard let mode = camera.profile.modes.first else { return 1 }
        return try camera.preflash(mode: mode, at: (ring.all.last?.metadata.timestamp ?? 0) + 1 / activeFormat.frameRateRange.maxFrameRate)
    }

    /// The readout mode of a still size (the sensor's, or the front camera's stills mode).
    private func stillMode(_ d: CaptureDimensions) throws(DaguerreError) -> SensorReadoutMode {
        guard let mode = camera.profile.modes.first(where: { $0.width == d.width && $0.height == d.height }) else {
            throw .invalidArgument(
                what: "a \(d) still from \(localizedName)",
                problem: "its sensor reads out \(camera.profile.modes.map { "\($0.width)×\($0.height)" }.joined(separator: ", "))")
        }
        return mode
    }

    /// A raw frame as a RAW sample buffer: calibration, photo metadata and capture facts.
    private func still(_ raw: RawFrame, sequenceNumber: Int64) -> SampleBuffer {
        let m = raw.metadata
        let dng = camera.dngImage(for: raw, date: Date())
        var buffer = SampleBuffer(raw: raw.mosaic, calibration: dng.color, photoMetadata: dng.metadata, presentationTime: m.timestamp)
        let smallest = max(min(m.whiteBalanceGains.x, m.whiteBalanceGains.y, m.whiteBalanceGains.z), 1e-9)
        buffer.metadata = CaptureFrameMetadata(
            timestamp: m.timestamp, sequenceNumber: sequenceNumber, exposureDuration: m.exposureDuration, iso: m.iso,
            gain: m.analogGain, luxEstimate: m.luxEstimate,
            whiteBalanceGains: CaptureWhiteBalanceGains(
                red: m.whiteBalanceGains.x / smallest, green: m.whiteBalanceGains.y / smallest, blue: m.whiteBalanceGains.z / smallest))
        return buffer
    }
}
