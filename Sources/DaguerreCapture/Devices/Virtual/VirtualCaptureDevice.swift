// The physically based virtual camera as a capture device (SPEC C4, C5, W2): the
// DaguerreVirtualCamera simulator behind the CaptureDevice protocol, so a session streams its
// frames exactly as it would a real camera's. Exposure and white-balance modes map onto the
// simulator's control loops; its choices are reported back through CaptureDeviceControls.
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreVirtualCamera
import Synchronization

/// A virtual back or front camera.
///
/// Formats: each streaming mode of the camera module as a 420v/420f pair (420f also in Display
/// P3, W2) and BGRA; the back camera's full-resolution mode also as Bayer ('rgg4'). The front
/// camera streams 1280×960 and offers 2576×1932 stills when high resolution is opted in (C5).
///
/// ```swift
/// let back = try VirtualCaptureDevice(profile: .back, position: .back)
/// back.camera.illuminant = .tungsten        // the scene, light and motion, live
/// back.camera.lux = 150
/// try session.addInput(try CaptureDeviceInput(device: back))
/// ```
public final class VirtualCaptureDevice: ControlledCaptureDevice {
    public let uniqueID: String
    public let localizedName: String
    public let position: CaptureDevicePosition
    public let isVirtual = true
    /// The simulator: scene, illuminant, lux, motion and moving objects can be changed while streaming.
    public let camera: VirtualCamera
    public let controls: CaptureDeviceControls
    private let stream = ExclusiveStream()
    /// The newest frames, kept for zero shutter lag (``PhotoCaptureDevice``).
    let ring = ZeroShutterLagRing()
    /// What the outputs need of the frames' pixels; frames nobody looks at are only metered.
    private let pixelDemand = DemandState()

    /// The demand, and the newest time slot that got pixels (for a reduced demand's rate).
    private final class DemandState: Sendable {
        let state = Mutex<(demand: FramePixelDemand, lastSlot: Int64?)>((.full, nil))
        var demand: FramePixelDemand { state.withLock { $0.demand } }

        /// The readout of `mode` the tick at `time` makes pixels at, or nil (metering only).
        func readout(at time: Double, mode: SensorReadoutMode) -> SensorReadoutMode? {
            state.withLock { s in
                let readout = VirtualCaptureDevice.readout(for: s.demand, mode: mode)
                guard case .reduced(_, let rate) = s.demand else { return readout }
                // At most `rate` frames with pixels a second: one per slot of 1/rate s.
                let slot = Int64((time * rate + 1e-6).rounded(.down))
                guard s.lastSlot.map({ slot > $0 }) ?? true else { return nil }
                s.lastSlot = slot
                return readout
            }
        }
    }

    public init(
        profile: VirtualCameraProfile, position: CaptureDevicePosition, seed: UInt64 = 0,
        uniqueID: String? = nil
    ) throws(DaguerreError) {
        camera = VirtualCamera(profile: profile, seed: seed)
        localizedName = "Virtual \(profile.name)"
        self.position = position
        self.uniqueID = uniqueID ?? "daguerre.virtual.\(position == .front ? "front" : "back")"
        controls = try CaptureDeviceControls(formats: try Self.formats(for: profile), maxWhiteBalanceGain: 8, deviceName: localizedName)
    }

    /// The formats of a camera module: its streaming modes (the front module's largest mode is
    /// its high-resolution still size, not a stream).
    static func formats(for profile: VirtualCameraProfile) throws(DaguerreError) -> [CaptureDeviceFormat] {
        let sensor = profile.sensor
        let isoRange = sensor.isoRange
        var streams = profile.modes
        var stills: CaptureDimensions?
        if profile.modes.count > 1, let largest = profile.modes.last, largest.maxFrameRate < 30 {
            streams.removeLast()
            stills = CaptureDimensions(width: largest.width, height: largest.height)
        }
        var formats: [CaptureDeviceFormat] = []
        for mode in streams {
            let rates = try CaptureFrameRateRange(minFrameRate: 1, maxFrameRate: mode.maxFrameRate)
            let durations = (1.0 / 8000)...(1 / mode.maxFrameRate)
            let photo = mode.width * mode.height >= sensor.width * sensor.height || stills != nil
            for pixel in [PixelFormatType.yuv420VideoRange, .yuv420FullRange, .bgra] {
                formats.append(
                    try CaptureDeviceFormat(
                        width: mode.width, height: mode.height, pixelFormat: pixel, frameRateRange: rates,
                        supportedColorSpaces: pixel == .yuv420VideoRange ? [.sRGB] : [.sRGB, .p3D65],
                        highResolutionStillDimensions: stills, isHighestPhotoQualitySupported: photo,
                        isoRange: isoRange, exposureDurationRange: durations))
            }
            if mode.width == sensor.width, mode.height == sensor.height {
                formats.append(
                    try CaptureDeviceFormat(
                        width: mode.width, height: mode.height, pixelFormat: .bayer(sensor.pattern),
                        frameRateRange: rates, isoRange: isoRange, exposureDurationRange: durations))
            }
        }
        return formats
    }

    public var hasFlash: Bool { camera.profile.hasFlash }
    public var isLensStabilizationSupported: Bool { camera.profile.lens.hasStabilization }

    /// Streams at the active format's frame rate on `clock`: each tick exposes one frame at the
    /// tick's time, so a virtual clock gives the same frames however fast it is advanced.
    /// Throws while the camera already streams (to another session, say): one stream at a time.
    public func startStreaming(clock: any CaptureClock, handler: @escaping @Sendable (CaptureStreamEvent) -> Void) throws(DaguerreError) {
        let format = controls.activeFormat
        guard let mode = camera.profile.modes.first(where: { $0.width == format.dimensions.width && $0.height == format.dimensions.height })
        else {
            throw .captureConfiguration(problem: "\(localizedName) has no readout mode for \(format)", fix: "Choose one of its formats.")
        }
        let camera = self.camera
        let controls = self.controls
        let ring = self.ring
        let demand = self.pixelDemand
        ring.clear()
        demand.state.withLock { $0.lastSlot = nil }
        if let readout = Self.readout(for: demand.demand, mode: mode) { camera.prepare(mode: readout) }
        let next = try CaptureClockTicker(clock: clock, interval: 1 / format.frameRateRange.maxFrameRate) { index, time in
            do throws(DaguerreError) {
                let readout = demand.readout(at: time, mode: mode)
                if let readout {
                    handler(
                        .video(
                            try Self.frame(
                                camera: camera, controls: controls, mode: mode, readout: readout, index: index, time: time, ring: ring)))
                } else {
                    handler(.metering(try Self.meter(camera: camera, controls: controls, mode: mode, index: index, time: time, ring: ring)))
                }
            } catch {
                handler(.failed(error))
            }
        }
        try stream.start(next, deviceName: localizedName)
    }

    /// The readout a demand asks of `mode`: the mode itself, a smaller one of its aspect (whole
    /// 2×2 blocks), or nil (metering only).
    static func readout(for demand: FramePixelDemand, mode: SensorReadoutMode) -> SensorReadoutMode? {
        switch demand {
        case .none: return nil
        case .full: return mode
        case .reduced(let box, _):
            let scale = min(Double(box.width) / Double(mode.width), Double(box.height) / Double(mode.height), 1)
            guard scale < 1 else { return mode }
            let width = max(2, Int((Double(mode.width) * scale).rounded()) / 2 * 2)
            let height = max(2, Int((Double(mode.height) * scale).rounded()) / 2 * 2)
            return SensorReadoutMode(width: width, height: height, maxFrameRate: mode.maxFrameRate)
        }
    }

    public func stopStreaming() {
        stream.stop()
    }

    /// Without an output that takes pixels, the stream only meters its frames (an eighth of the
    /// size, for the control loops) and keeps their descriptions for zero shutter lag.
    public func setFramePixelsWanted(_ wanted: Bool) {
        setFramePixelDemand(wanted ? .full : .none)
    }

    /// A reduced demand reads frames out binned to the demand's size (the format's aspect), at
    /// the demand's rate; the frames in between are metered only.
    public func setFramePixelDemand(_ demand: FramePixelDemand) {
        pixelDemand.state.withLock { $0.demand = demand }
    }

    /// The ISPs for the two colour spaces, built once (each inverts a matrix and tabulates a curve).
    static let ispSRGB = VideoISP(outputPrimaries: .srgb), ispP3 = VideoISP(outputPrimaries: .displayP3)

    /// One frame: the device's controls applied to the simulator, a raw exposure, the ISP for
    /// the active pixel format, and the control loops' choices reported back.
    static func frame(
        camera: VirtualCamera, controls: CaptureDeviceControls, mode: SensorReadoutMode, readout: SensorReadoutMode? = nil,
        index: Int64, time: Double, ring: ZeroShutterLagRing? = nil
    ) throws(DaguerreError) -> SampleBuffer {
        let (format, colorSpace, _, _) = controls.snapshot
        applyControls(camera: camera, controls: controls)
        let raw = try camera.captureRAW(mode: mode, readout: readout ?? mode, at: time)
        let metadata = report(raw.metadata, camera: camera, controls: controls, index: index, time: time, ring: ring)
        let m = raw.metadata
        let isp = colorSpace == .p3D65 ? Self.ispP3 : Self.ispSRGB
        let content: SampleBuffer.Content
        switch format.pixelFormat {
        case .yuv420FullRange?, .yuv420VideoRange?:
            content = .yCbCr420(
                try isp.process(raw.mosaic, whiteBalance: m.whiteBalanceGains, fullRange: format.pixelFormat == .yuv420FullRange))
        case .bgra?:
            // Two passes: the ISP to full-range Y'CbCr, then straight into BGRA (no RGBA copy to swap).
            let yuv = try isp.process(raw.mosaic, whiteBalance: m.whiteBalanceGains, fullRange: true)
            var bgra = try PixelBuffer(width: yuv.width, height: yuv.height, format: .bgra8, colorSpace: colorSpace.colorSpace)
            try YCbCrConversion.convert(yuv, into: &bgra)
            content = .pixels(bgra)
        case .bayer?:
            content = .bayer(raw.mosaic)
        case nil:
            throw .invalidArgument(what: "format \(format)", problem: "is not a video format")
        }
        return try SampleBuffer(content: content, colorSpace: colorSpace.colorSpace, metadata: metadata)
    }

    /// One frame metered only: exposed and read out small for the control loops, no pixels.
    static func meter(
        camera: VirtualCamera, controls: CaptureDeviceControls, mode: SensorReadoutMode, index: Int64, time: Double,
        ring: ZeroShutterLagRing?
    ) throws(DaguerreError) -> CaptureFrameMetadata {
        applyControls(camera: camera, controls: controls)
        return report(try camera.meter(mode: mode, at: time), camera: camera, controls: controls, index: index, time: time, ring: ring)
    }

    /// The device's exposure and white-balance modes, as the simulator's controls.
    private static func applyControls(camera: VirtualCamera, controls: CaptureDeviceControls) {
        let (_, _, exposure, whiteBalance) = controls.snapshot
        switch exposure.mode {
        case .auto: if camera.exposureControl != .auto { camera.exposureControl = .auto }
        case .locked: camera.exposureControl = .custom(camera.currentExposure)
        case .custom: camera.exposureControl = .custom(ExposureSettings(duration: exposure.duration, iso: exposure.iso))
        }
        switch whiteBalance.mode {
        case .auto: if camera.whiteBalanceControl != .auto { camera.whiteBalanceControl = .auto }
        case .locked:
            let g = whiteBalance.gains
            camera.whiteBalanceControl = .custom(SIMD3(g.red / g.green, 1, g.blue / g.green))
        }
    }

    /// The control loops' choices reported to the device's controls, the frame kept in the ring,
    /// and its metadata as capture sees it (gains scaled so the smallest is 1, the gyro's rate).
    private static func report(
        _ m: FrameMetadata, camera: VirtualCamera, controls: CaptureDeviceControls, index: Int64, time: Double,
        ring: ZeroShutterLagRing?
    ) -> CaptureFrameMetadata {
        // Capture APIs give gains of at least 1: scale so the smallest is 1.
        let smallest = min(m.whiteBalanceGains.x, m.whiteBalanceGains.y, m.whiteBalanceGains.z)
        let gains = CaptureWhiteBalanceGains(
            red: m.whiteBalanceGains.x / smallest, green: m.whiteBalanceGains.y / smallest,
            blue: m.whiteBalanceGains.z / smallest)
        controls.reportAutomaticExposure(duration: camera.currentExposure.duration, iso: camera.currentExposure.iso)
        controls.reportAutomaticWhiteBalance(gains: gains)
        // The gyro measures the body, before stabilization: horizontal image motion is yaw,
        // vertical is pitch.
        let d0 = camera.motion.displacement(at: time, stabilized: false)
        let d1 = camera.motion.displacement(at: time + 0.001, stabilized: false)
        let omega = (d1 - d0) / 0.001 / camera.pixelsPerRadian
        let metadata = CaptureFrameMetadata(
            timestamp: time, sequenceNumber: index, exposureDuration: m.exposureDuration, iso: m.iso, gain: m.analogGain,
            luxEstimate: m.luxEstimate, whiteBalanceGains: gains,
            motion: CaptureMotion(angularVelocity: SIMD3(omega.y, omega.x, 0)))
        ring?.record(
            metadata, frameIndex: m.index, exposure: ExposureSettings(duration: m.exposureDuration, iso: m.iso),
            gains: m.whiteBalanceGains, conditions: camera.conditions)
        return metadata
    }
}
