// The virtual camera as a photo device (SPEC P1, P10, P13, R2, C5, Q1): its zero-shutter-lag
// ring keeps frame descriptions (time, exposure, gains, the frame's index in the camera's
// sequence, which fixes its noise, and the scene as it was), and a still is rendered at full
// resolution only when it is read: the same result as keeping 12 MP buffers, without rendering
// 30 of them a second.
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
    var conditions: VirtualCamera.Conditions
    var isSettled: Bool
}

/// The newest frames of a virtual camera's stream.
final class ZeroShutterLagRing: Sendable {
    static let capacity = 8
    private let frames = Mutex<[KeptFrame]>([])

    /// Records a streamed frame; settled when exposure (duration × gain) and white balance moved
    /// less than 2 % since the frame before.
    func record(
        _ metadata: CaptureFrameMetadata, frameIndex: UInt64, exposure: ExposureSettings, gains: SIMD3<Double>,
        conditions: VirtualCamera.Conditions
    ) {
        frames.withLock { ring in
            var settled = false
            if let last = ring.last {
                let before = last.exposure.duration * last.metadata.gain
                let now = exposure.duration * metadata.gain
                let change = (gains - last.gains) / last.gains
                settled = abs(now / before - 1) < 0.02 && max(change.max(), -change.min()) < 0.02
            }
            ring.append(
                KeptFrame(
                    metadata: metadata, frameIndex: frameIndex, exposure: exposure, gains: gains, conditions: conditions,
                    isSettled: settled))
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
            maxBracketedCapturePhotoCount: 3, sensorDimensions: CaptureDimensions(width: s.width, height: s.height),
            isoRange: s.isoRange, exposureDurationRange: (1.0 / 8000)...1)
    }

    public var streamReadoutDuration: Double {
        let streamed = activeFormat.dimensions
        let mode = camera.profile.modes.first { $0.width == streamed.width && $0.height == streamed.height }
        return mode.map { camera.sensor(for: $0).readoutTime } ?? 0
    }

    public func zeroShutterLagFrames() -> [ZeroShutterLagFrame] {
        let camera = self.camera
        let name = localizedName
        let readout = streamReadoutDuration
        return ring.all.map { kept in
            ZeroShutterLagFrame(metadata: kept.metadata, isSettled: kept.isSettled, readoutDuration: readout) { (d) throws(DaguerreError) in
                let mode = try Self.stillMode(d, of: camera, deviceName: name)
                return SensorStill(metadata: kept.metadata, dimensions: d) { () throws(DaguerreError) in
                    let raw = try camera.captureStill(
                        mode: mode, at: kept.metadata.timestamp, exposure: kept.exposure, whiteBalanceGains: kept.gains,
                        frameIndex: kept.frameIndex, conditions: kept.conditions)
                    return Self.sampleBuffer(raw, of: camera, sequenceNumber: kept.metadata.sequenceNumber)
                }
            }
        }
    }

    public func exposeStills(
        _ exposures: [StillExposure], dimensions: CaptureDimensions, whiteBalance: CaptureWhiteBalanceGains?, lensStabilization: Bool?
    ) throws(DaguerreError) -> [SensorStill] {
        let camera = self.camera
        let mode = try Self.stillMode(dimensions, of: camera, deviceName: localizedName)
        let newest = ring.all.last
        let interval = 1 / activeFormat.frameRateRange.maxFrameRate
        var time = (newest?.metadata.timestamp ?? 0) + interval
        let gains = whiteBalance.map { SIMD3($0.red, $0.green, $0.blue) / $0.green } ?? newest?.gains ?? camera.currentWhiteBalanceGains
        let conditions = lensStabilization.map { camera.conditions.stabilized($0) } ?? camera.conditions
        let range = photoCapabilities.isoRange
        var first = camera.reserveFrameIndices(exposures.count)
        let sequence = newest?.metadata.sequenceNumber ?? 0
        var stills: [SensorStill] = []
        for e in exposures {
            guard e.duration.isFinite, e.duration > 0, e.duration <= 60, e.iso.isFinite, e.iso > 0 else {
                throw .invalidArgument(
                    what: "still exposure \(e.duration) s at ISO \(e.iso)", problem: "give a duration in (0, 60] s and a positive ISO")
            }
            let exposure = ExposureSettings(duration: e.duration, iso: min(max(e.iso, range.lowerBound), range.upperBound))
            let gain = camera.profile.sensor.analogGain(iso: exposure.iso)
            let smallest = max(gains.min(), 1e-9)
            let metadata = CaptureFrameMetadata(
                timestamp: time, sequenceNumber: sequence, exposureDuration: exposure.duration, iso: exposure.iso, gain: gain,
                luxEstimate: newest?.metadata.luxEstimate,
                whiteBalanceGains: CaptureWhiteBalanceGains(red: gains.x / smallest, green: gains.y / smallest, blue: gains.z / smallest))
            let index = first
            let at = time
            let flash = e.flashPower
            stills.append(
                SensorStill(metadata: metadata, dimensions: dimensions) { () throws(DaguerreError) in
                    let raw = try camera.captureStill(
                        mode: mode, at: at, exposure: exposure, whiteBalanceGains: gains, flashPower: flash, frameIndex: index,
                        conditions: conditions)
                    return Self.sampleBuffer(raw, of: camera, sequenceNumber: sequence)
                })
            first += 1
            time += max(interval, e.duration)
        }
        return stills
    }

    public func meterFlash() throws(DaguerreError) -> StillExposure {
        guard let mode = camera.profile.modes.first else {
            throw .unsupported(feature: "a pre-flash on \(localizedName)", hint: "Its camera has no readout mode.")
        }
        let interval = 1 / activeFormat.frameRateRange.maxFrameRate
        let power = try camera.preflash(mode: mode, at: (ring.all.last?.metadata.timestamp ?? 0) + interval)
        // The pre-flash metered for the exposure the next frame would use.
        let e = camera.currentExposure
        return StillExposure(duration: min(e.duration, interval), iso: e.iso, flashPower: power)
    }

    public func preparePhotoResources(dimensions: [CaptureDimensions]) throws(DaguerreError) {
        for d in Set(dimensions) { camera.prepare(mode: try Self.stillMode(d, of: camera, deviceName: localizedName)) }
    }

    /// The readout mode of a still size (the sensor's, or the front camera's stills mode).
    static func stillMode(_ d: CaptureDimensions, of camera: VirtualCamera, deviceName: String) throws(DaguerreError)
        -> SensorReadoutMode
    {
        guard let mode = camera.profile.modes.first(where: { $0.width == d.width && $0.height == d.height }) else {
            throw .invalidArgument(
                what: "a \(d) still from \(deviceName)",
                problem: "its sensor reads out \(camera.profile.modes.map { "\($0.width)×\($0.height)" }.joined(separator: ", "))")
        }
        return mode
    }

    /// A raw frame as a RAW sample buffer: calibration, photo metadata and capture facts.
    static func sampleBuffer(_ raw: RawFrame, of camera: VirtualCamera, sequenceNumber: Int64) -> SampleBuffer {
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
