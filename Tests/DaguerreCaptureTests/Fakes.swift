// Test doubles: a fake camera that streams solid-colour frames (420v/420f/BGRA/Bayer) against
// whatever clock it is given, and a fake microphone that streams a deterministic ramp. They are
// written against the public protocol only, as an outside module (the virtual camera's adapter)
// would write them.
import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import Dispatch
import Foundation
import Synchronization
import Testing

/// A camera whose frame `n` is a flat field of luma `FakeCamera.luma(n)`, chroma (100, 150).
final class FakeCamera: ControlledCaptureDevice {
    let uniqueID: String
    let localizedName: String
    let position: CaptureDevicePosition
    let isVirtual: Bool
    let hasFlash = true
    let isLensStabilizationSupported = false
    let controls: CaptureDeviceControls

    /// What the tests observe of the stream; the one-stream rule itself is the devices' ExclusiveStream.
    private struct State: Sendable {
        var handler: (@Sendable (CaptureStreamEvent) -> Void)?
        var starts = 0
        var stops = 0
        var refuseToStart = false
    }
    private let state = Mutex(State())
    private let stream = ExclusiveStream()

    init(
        formats: [CaptureDeviceFormat], name: String = "Fake Back Camera", position: CaptureDevicePosition = .back,
        isVirtual: Bool = true, uniqueID: String? = nil
    ) throws(DaguerreError) {
        controls = try CaptureDeviceControls(formats: formats, deviceName: name)
        localizedName = name
        self.position = position
        self.isVirtual = isVirtual
        self.uniqueID = uniqueID ?? "fake-\(name)-\(UUID().uuidString)"
    }

    /// A small wide-colour camera: 640×480, 320×240 and 160×120 pairs at 30 fps.
    static func small(
        name: String = "Fake Back Camera", position: CaptureDevicePosition = .back, wideColor: Bool = true,
        isVirtual: Bool = true
    ) throws(DaguerreError) -> FakeCamera {
        var formats: [CaptureDeviceFormat] = []
        for (w, h) in [(160, 120), (320, 240), (640, 480)] {
            formats += try CaptureDeviceFormat.videoRangePair(width: w, height: h, maxFrameRate: 30, wideColor: wideColor)
        }
        return try FakeCamera(formats: formats, name: name, position: position, isVirtual: isVirtual)
    }

    static func luma(_ index: Int64) -> UInt8 { UInt8(40 + (index * 5) % 160) }

    var startCount: Int { state.withLock { $0.starts } }
    var stopCount: Int { state.withLock { $0.stops } }
    var isStreaming: Bool { state.withLock { $0.handler != nil } }
    func refuseToStart(_ refuse: Bool) { state.withLock { $0.refuseToStart = refuse } }

    func startStreaming(clock: any CaptureClock, handler: @escaping @Sendable (CaptureStreamEvent) -> Void) throws(DaguerreError) {
        let format = controls.activeFormat
        let controls = self.controls
        let ticker = try CaptureClockTicker(clock: clock, interval: 1 / format.frameRateRange.maxFrameRate) { index, time in
            let (format, colorSpace, exposure, whiteBalance) = controls.snapshot
            do throws(DaguerreError) {
                handler(
                    .video(
                        try FakeCamera.frame(
                            format: format, colorSpace: colorSpace, index: index, time: time,
                            exposure: exposure, whiteBalance: whiteBalance)))
            } catch {
                handler(.failed(error))
            }
        }
        guard !state.withLock({ $0.refuseToStart }) else {
            throw .captureConfiguration(problem: "\(localizedName) is in use by another client", fix: "Try again later.")
        }
        try stream.start(ticker, deviceName: localizedName)
        state.withLock { s in
            s.handler = handler
            s.starts += 1
        }
    }

    func stopStreaming() {
        let stopped = stream.stop()
        state.withLock { s in
            if stopped { s.stops += 1 }
            s.handler = nil
        }
    }

    /// Sends an event as if the hardware had (an interruption, a failure).
    func simulate(_ event: CaptureStreamEvent) {
        state.withLock { $0.handler }?(event)
    }

    static func frame(
        format: CaptureDeviceFormat, colorSpace: CaptureColorSpace, index: Int64, time: Double,
        exposure: CaptureExposure = CaptureExposure(), whiteBalance: CaptureWhiteBalance = CaptureWhiteBalance()
    ) throws(DaguerreError) -> SampleBuffer {
        let (w, h) = (format.dimensions.width, format.dimensions.height)
        let shade = luma(index)
        let content: SampleBuffer.Content
        switch format.pixelFormat {
        case .yuv420FullRange?, .yuv420VideoRange?:
            content = .yCbCr420(
                try PlanarYCbCr420Buffer(
                    width: w, height: h, luma: [UInt8](repeating: shade, count: w * h),
                    cb: [UInt8](repeating: 100, count: w * h / 4), cr: [UInt8](repeating: 150, count: w * h / 4),
                    fullRange: format.pixelFormat == .yuv420FullRange))
        case .bgra?:
            var buffer = try PixelBuffer(width: w, height: h, format: .bgra8)
            buffer.withUnsafeMutableBytes { raw in
                for i in stride(from: 0, to: raw.count, by: 4) {
                    raw[i] = 60
                    raw[i + 1] = shade
                    raw[i + 2] = 200
                    raw[i + 3] = 255
                }
            }
            content = .pixels(buffer)
        case .bayer(let pattern)?:
            var mosaic = try BayerImage(width: w, height: h, pattern: pattern)
            mosaic.samples = [UInt16](repeating: UInt16(shade) * 16, count: w * h)
            content = .bayer(mosaic)
        case nil:
            throw .invalidArgument(what: "Format \(format)", problem: "is not a video format")
        }
        return try SampleBuffer(
            content: content, colorSpace: colorSpace.colorSpace,
            metadata: CaptureFrameMetadata(
                timestamp: time, sequenceNumber: index, exposureDuration: exposure.duration,
                iso: exposure.iso, gain: exposure.iso / 100, luxEstimate: 320,
                whiteBalanceGains: whiteBalance.gains,
                motion: CaptureMotion(angularVelocity: SIMD3(0.01, 0, 0))))
    }
}

/// A microphone delivering 10 ms buffers of a ramp (sample k of the stream is `k % 2000 - 1000`).
final class FakeMicrophone: ControlledCaptureDevice {
    let uniqueID: String
    let localizedName: String
    let position = CaptureDevicePosition.unspecified
    let isVirtual = true
    let hasFlash = false
    let isLensStabilizationSupported = false
    let controls: CaptureDeviceControls
    private let stream = ExclusiveStream()

    init(name: String = "Fake Microphone", sampleRate: Int = 44_100, channels: Int = 1) throws(DaguerreError) {
        controls = try CaptureDeviceControls(
            formats: [CaptureDeviceFormat(audio: try CaptureAudioFormat(sampleRate: sampleRate, channels: channels))],
            deviceName: name)
        localizedName = name
        uniqueID = "fake-mic-\(UUID().uuidString)"
    }

    func startStreaming(clock: any CaptureClock, handler: @escaping @Sendable (CaptureStreamEvent) -> Void) throws(DaguerreError) {
        guard let format = controls.activeFormat.audioFormat else { return }
        let perBuffer = format.sampleRate / 100
        let ticker = try CaptureClockTicker(clock: clock, interval: 0.01) { index, time in
            let first = Int(index) * perBuffer
            var samples = [Int16](repeating: 0, count: perBuffer * format.channels)
            for k in 0..<perBuffer {
                for c in 0..<format.channels { samples[k * format.channels + c] = Int16((first + k) % 2000 - 1000) }
            }
            do throws(DaguerreError) {
                handler(
                    .audio(
                        try CaptureAudioBuffer(samples: samples, sampleRate: format.sampleRate, channels: format.channels, timestamp: time))
                )
            } catch {
                handler(.failed(error))
            }
        }
        try stream.start(ticker, deviceName: localizedName)
    }

    func stopStreaming() {
        stream.stop()
    }
}

/// Authorization for tests: reasons declared, virtual devices granted, its own registry.
func testAuthorization() -> CaptureAuthorization {
    CaptureAuthorization(
        usageDescriptions: UsageDescriptions(camera: "Tests take pictures.", microphone: "Tests record sound."),
        registry: CaptureDeviceRegistry())
}

func input(_ device: any CaptureDevice) throws(DaguerreError) -> CaptureDeviceInput {
    try CaptureDeviceInput(device: device, authorization: testAuthorization())
}

/// Collects a session's events through its handler; `flush()` waits for those already sent.
final class EventLog: Sendable {
    let queue = DispatchQueue(label: "test.events")
    private let events = Locked<[CaptureSessionEvent]>([])

    init(_ session: CaptureSession) {
        session.setEventHandler(queue: queue) { [events] event in events.mutate { $0.append(event) } }
    }

    var all: [CaptureSessionEvent] {
        queue.sync {}
        return events.value
    }
}

/// Frames a VideoDataOutput delivered, in order.
final class FrameLog: Sendable {
    let queue = DispatchQueue(label: "test.frames")
    private let frames = Locked<[SampleBuffer]>([])
    private let drops = Locked<[(Int64, CaptureFrameDropReason)]>([])

    init(_ output: VideoDataOutput, onFrame: (@Sendable (SampleBuffer) -> Void)? = nil) {
        output.setSampleBufferHandler(queue: queue) { [frames] frame, _ in
            onFrame?(frame)
            frames.mutate { $0.append(frame) }
        } didDrop: { [drops] metadata, reason, _ in
            drops.mutate { $0.append((metadata.sequenceNumber, reason)) }
        }
    }

    var all: [SampleBuffer] {
        queue.sync {}
        return frames.value
    }

    var dropped: [(Int64, CaptureFrameDropReason)] {
        queue.sync {}
        return drops.value
    }
}

/// Waits (with a generous limit that only guards against hangs) for a semaphore.
func wait(_ semaphore: DispatchSemaphore, _ what: String, seconds: Double = 120) -> Bool {
    let ok = semaphore.wait(timeout: .now() + seconds) == .success
    if !ok { Issue.record("timed out waiting for \(what)") }
    return ok
}

/// The `.captureConfiguration` problem text of an error, for matching.
func problem(_ error: any Error) -> String {
    guard let error = error as? DaguerreError else { return "\(error)" }
    return error.message + " " + error.recovery
}

/// A value behind a mutex, in a class so escaping closures can share it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func mutate<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
