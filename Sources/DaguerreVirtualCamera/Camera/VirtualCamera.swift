// The physically based virtual camera (SPEC C4, C5): a scene at a light level, seen
// through a lens, integrated by a Bayer sensor with real noise while the camera moves, under
// auto-exposure and auto-white-balance control loops. The built-in default device of the
// capture layer; deterministic when seeded. Our own code: no open tool simulates this.
import DaguerreCore
import DaguerreFormats
import Foundation

/// How exposure is chosen: by the control loop, held, or set by the app.
public enum ExposureControl: Sendable, Equatable {
    case auto, locked
    case custom(ExposureSettings)
}

/// How white balance is chosen.
public enum WhiteBalanceControl: Sendable, Equatable {
    case auto, locked
    case custom(SIMD3<Double>)
}

/// A virtual camera module with its scene and control state.
///
/// Thread-safe: properties go through one lock, and captures are serialized by another, so
/// frames come out in order, each with its own index (and noise), and the control loops see
/// each frame once.
///
/// ```swift
/// let camera = VirtualCamera(profile: .back, seed: 42)
/// camera.illuminant = .tungsten
/// camera.lux = 150
/// for i in 0..<10 { _ = try camera.captureRAW(mode: camera.profile.modes[0], at: Double(i) / 30) }
/// let still = try camera.captureRAW(mode: camera.profile.modes[1], at: 0.4)
/// ```
public final class VirtualCamera: @unchecked Sendable {
    public let profile: VirtualCameraProfile
    public let seed: UInt64
    private let lock = NSLock()
    /// Held for a whole capture (recursive: the pre-flash captures twice inside it).
    private let captureLock = NSRecursiveLock()
    private var state: State
    private var opticalCache: [String: OpticalImage] = [:]

    struct State {
        var scene: any Scene = StudioScene()
        var illuminant = Illuminant.d65
        var lux = 400.0
        var motion = CameraMotion.tripod
        var movingObjects: [MovingObject] = []
        var isStabilizationEnabled = true
        var exposureControl = ExposureControl.auto
        var whiteBalanceControl = WhiteBalanceControl.auto
        var exposure: ExposureSettings
        var gains = SIMD3<Double>(2, 1, 1.6)
        var frameIndex: UInt64 = 0
        var awb = AutoWhiteBalance()
    }

    public init(profile: VirtualCameraProfile = .back, scene: any Scene = StudioScene(), seed: UInt64 = 0) {
        self.profile = profile
        self.seed = seed
        state = State(exposure: ExposureSettings(duration: 1.0 / 60, iso: profile.sensor.baseISO * 4))
        state.scene = scene
    }

    private func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// The scene (its `cacheKey` names its cached optical images, so a new scene renders anew).
    public var scene: any Scene {
        get { withState { $0.scene } }
        set { withState { $0.scene = newValue } }
    }
    /// The scene's illuminant and light level (changeable while running).
    public var illuminant: Illuminant {
        get { withState { $0.illuminant } }
        set { withState { $0.illuminant = newValue } }
    }
    public var lux: Double {
        get { withState { $0.lux } }
        set { withState { $0.lux = max(0, newValue) } }
    }
    public var motion: CameraMotion {
        get { withState { $0.motion } }
        set { withState { $0.motion = newValue } }
    }
    /// Discs moving in front of the scene (changeable while running).
    public var movingObjects: [MovingObject] {
        get { withState { $0.movingObjects } }
        set { withState { $0.movingObjects = newValue } }
    }
    /// Optical stabilization (only with a lens that has it).
    public var isStabilizationEnabled: Bool {
        get { withState { $0.isStabilizationEnabled && profile.lens.hasStabilization } }
        set { withState { $0.isStabilizationEnabled = newValue } }
    }
    public var exposureControl: ExposureControl {
        get { withState { $0.exposureControl } }
        set { withState { $0.exposureControl = newValue } }
    }
    public var whiteBalanceControl: WhiteBalanceControl {
        get { withState { $0.whiteBalanceControl } }
        set { withState { $0.whiteBalanceControl = newValue } }
    }
    /// The exposure and gains the next frame will use.
    public var currentExposure: ExposureSettings { withState { $0.exposure } }
    public var currentWhiteBalanceGains: SIMD3<Double> { withState { $0.gains } }

    /// Full-resolution pixels per radian of camera rotation: the focal length in pixels, from
    /// the 35 mm-equivalent focal length (36 mm across the sensor's width).
    public var pixelsPerRadian: Double { Double(profile.sensor.width) * profile.lens.focalLengthIn35mm / 36 }

    /// The sensor as read out in `mode` (binned from the full sensor).
    public func sensor(for mode: SensorReadoutMode) -> SensorModel {
        mode.width == profile.sensor.width && mode.height == profile.sensor.height
            ? profile.sensor : profile.sensor.binned(width: mode.width, height: mode.height, fieldSpan: fieldSpan(for: mode))
    }

    /// Mode pixels per full-resolution pixel, for a mode that crops the 4:3 field to its aspect.
    func motionScale(for mode: SensorReadoutMode) -> Double {
        Double(mode.width) / (Double(profile.sensor.width) * fieldSpan(for: mode).x)
    }

    /// The share of the 4:3 field's width and height `mode` sees (a wider mode crops rows).
    func fieldSpan(for mode: SensorReadoutMode) -> SIMD2<Double> {
        let fieldAspect = Double(profile.sensor.width) / Double(profile.sensor.height)
        let modeAspect = Double(mode.width) / Double(mode.height)
        return modeAspect >= fieldAspect ? SIMD2(1, fieldAspect / modeAspect) : SIMD2(modeAspect / fieldAspect, 1)
    }

    /// The light on the sensor for `mode` under `illuminant`, rendered once and cached.
    func opticalImage(for mode: SensorReadoutMode, scene: any Scene, illuminant: Illuminant) -> OpticalImage {
        let key = "\(scene.cacheKey)|\(illuminant.rawValue)|\(mode.width)x\(mode.height)"
        if let hit = (withState { _ in opticalCache[key] }) { return hit }
        let image = OpticalImage.render(
            scene: scene, lighting: .under(illuminant), lens: profile.lens,
            width: mode.width, height: mode.height,
            fullWidth: profile.sensor.width, fullHeight: profile.sensor.height)
        withState { _ in
            // Bounded by bytes (a 12 MP image is about 195 MB): drop everything older when full.
            let bytes = { (i: OpticalImage) in i.width * i.height * 16 }
            if opticalCache.values.reduce(0, { $0 + bytes($1) }) + bytes(image) > 512 << 20 { opticalCache.removeAll() }
            opticalCache[key] = image
        }
        return image
    }

    /// Renders the light on the sensor for `mode` now (the scene through the lens, cached), so
    /// the first frame of a stream is not late. Streaming devices call it before they start.
    public func prepare(mode: SensorReadoutMode) {
        let s = withState { $0 }
        _ = opticalImage(for: mode, scene: s.scene, illuminant: s.illuminant)
    }

    /// Exposes and reads one frame in `mode` starting at `time` (seconds on the camera's
    /// clock), then runs the control loops on it. With `flashPower` (0...1 of the flash's full
    /// pulse), the flash fires during the exposure (the back camera only); its light falls off
    /// with the square of each surface's distance. Flash frames do not move the control loops.
    public func captureRAW(mode: SensorReadoutMode, at time: Double, flashPower: Double? = nil) throws(DaguerreError) -> RawFrame {
        try captureRAW(mode: mode, readout: mode, at: time, flashPower: flashPower)
    }

    /// ``captureRAW(mode:at:flashPower:)`` exposed as `mode` (its frame rate limits the
    /// exposure) and read out binned to `readout`'s size, as a sensor's smaller video readout
    /// (a Live Photo's buffer, L2). `readout` must not be larger than `mode`.
    public func captureRAW(mode: SensorReadoutMode, readout: SensorReadoutMode, at time: Double, flashPower: Double? = nil)
        throws(DaguerreError) -> RawFrame
    {
        try checkCapture(mode: mode, time: time, flashPower: flashPower)
        guard readout == mode || (readout.width <= mode.width && readout.height <= mode.height) else {
            throw .invalidArgument(
                what: "readout \(readout.width)×\(readout.height)", problem: "is larger than the mode \(mode.width)×\(mode.height) it bins")
        }
        if readout != mode { try Self.validate(profile: profile, mode: readout) }
        return try streamFrame(mode: mode, readout: readout, at: time, flashPower: flashPower)
    }

    /// Meters one frame of a stream in `mode` at `time` without reading out its pixels at
    /// `mode`'s size: the frame is read out at an eighth of the size, at least 384 photosites wide (binned, as a sensor's
    /// metering path does), the control loops run on it exactly as ``captureRAW(mode:at:flashPower:)``
    /// would, and its metadata comes back; its index still fixes its noise, so
    /// ``captureStill(mode:at:exposure:whiteBalanceGains:flashPower:frameIndex:conditions:)``
    /// can render it at full size later (zero shutter lag without rendering every frame).
    public func meter(mode: SensorReadoutMode, at time: Double) throws(DaguerreError) -> FrameMetadata {
        try checkCapture(mode: mode, time: time, flashPower: nil)
        // An eighth of the size, but at least 384 photosites wide, so that the statistics' 32×24
        // cells each still hold several photosites of every colour.
        let width = min(mode.width, max(mode.width / 8, 384)) / 2 * 2
        let height = max(2, Int((Double(width) * Double(mode.height) / Double(mode.width)).rounded()) / 2 * 2)
        let readout = SensorReadoutMode(width: width, height: height, maxFrameRate: mode.maxFrameRate)
        return try streamFrame(mode: mode, readout: readout, at: time, flashPower: nil).metadata
    }

    /// One frame of the stream: exposed with the controls' settings (duration limited by
    /// `mode`'s frame rate), read out at `readout`'s size, then the control loops run on it.
    private func streamFrame(mode: SensorReadoutMode, readout: SensorReadoutMode, at time: Double, flashPower: Double?)
        throws(DaguerreError) -> RawFrame
    {
        captureLock.lock()
        defer { captureLock.unlock() }
        let flash = flashPower != nil
        let snapshot = withState { s -> State in
            switch s.exposureControl {
            case .custom(let e): s.exposure = e
            default: break
            }
            switch s.whiteBalanceControl {
            case .custom(let g): s.gains = g
            default: break
            }
            return s
        }
        try Self.validate(snapshot)
        var exposure = snapshot.exposure
        exposure.duration = min(exposure.duration, 1 / mode.maxFrameRate)
        let (frame, stats) = try render(
            mode: readout, time: time, state: snapshot, exposure: exposure, gains: snapshot.gains, flashPower: flashPower,
            frameIndex: snapshot.frameIndex)
        let sensor = sensor(for: mode)
        withState { s in
            s.frameIndex = snapshot.frameIndex + 1
            guard !flash else { return }
            if s.exposureControl == .auto {
                let ae = AutoExposure(isoRange: sensor.isoRange, durationRange: 1.0 / 8000...(1 / mode.maxFrameRate))
                s.exposure = ae.update(current: exposure, measured: stats.meanGreen, clipped: stats.clippedFraction)
            }
            if s.whiteBalanceControl == .auto { s.gains = s.awb.update(current: s.gains, statistics: stats) }
        }
        return frame
    }

    /// The scene, light, motion and moving objects of one moment: a still exposed later with
    /// them (``captureStill(mode:at:exposure:whiteBalanceGains:flashPower:frameIndex:conditions:)``)
    /// is the still the camera would have exposed then, whatever has changed since.
    ///
    /// ```swift
    /// let then = camera.conditions
    /// camera.lux = 5
    /// let still = try camera.captureStill(mode: mode, at: t, exposure: e, whiteBalanceGains: g, conditions: then)  // at the old light
    /// ```
    public struct Conditions: Sendable {
        fileprivate var state: State

        /// These conditions with optical stabilization on or off (a bracket's lens
        /// stabilization; it still needs a stabilized lens).
        public func stabilized(_ on: Bool) -> Conditions {
            var copy = self
            copy.state.isStabilizationEnabled = on
            return copy
        }
    }

    /// The conditions now.
    public var conditions: Conditions { withState { Conditions(state: $0) } }

    /// Reserves `count` indices of the camera's sequence for stills exposed now and rendered
    /// later, and returns the first.
    public func reserveFrameIndices(_ count: Int) -> UInt64 {
        withState { s in
            defer { s.frameIndex += UInt64(max(count, 0)) }
            return s.frameIndex
        }
    }

    /// Exposes one still in `mode` at `time` with this exposure and these white-balance gains,
    /// without moving the control loops (SPEC P10, P13: brackets, flash and bursts). With
    /// `frameIndex`, re-renders that frame of the camera's sequence, noise and all, as it would
    /// have been read out in `mode` (zero shutter lag: a frame kept as a description is rendered
    /// at full resolution only when a photo asks for it); without, takes the next index. With
    /// `conditions`, the scene and light are those of that moment, not the current ones.
    public func captureStill(
        mode: SensorReadoutMode, at time: Double, exposure: ExposureSettings, whiteBalanceGains gains: SIMD3<Double>,
        flashPower: Double? = nil, frameIndex: UInt64? = nil, conditions: Conditions? = nil
    ) throws(DaguerreError) -> RawFrame {
        captureLock.lock()
        defer { captureLock.unlock() }
        try checkCapture(mode: mode, time: time, flashPower: flashPower)
        var snapshot = conditions?.state ?? withState { $0 }
        snapshot.exposure = exposure
        snapshot.gains = gains
        try Self.validate(snapshot)
        let index = frameIndex ?? reserveFrameIndices(1)
        return try render(
            mode: mode, time: time, state: snapshot, exposure: exposure, gains: gains, flashPower: flashPower, frameIndex: index
        ).frame
    }

    /// The index the next frame will take.
    public var nextFrameIndex: UInt64 { withState { $0.frameIndex } }

    /// Refuses a mode the camera lacks, a time that is not finite and a flash it cannot fire.
    private func checkCapture(mode: SensorReadoutMode, time: Double, flashPower: Double?) throws(DaguerreError) {
        try Self.validate(profile: profile, mode: mode)
        guard time.isFinite else { throw .invalidArgument(what: "capture time \(time)", problem: "must be finite") }
        guard profile.modes.contains(mode) else {
            throw .invalidArgument(
                what: "readout mode \(mode.width)×\(mode.height)",
                problem: "the \(profile.name) reads out \(profile.modes.map { "\($0.width)×\($0.height)" }.joined(separator: ", "))")
        }
        if flashPower != nil, !profile.hasFlash {
            throw .unsupported(feature: "flash on the \(profile.name)", hint: "Use the back camera, or capture without flash.")
        }
        if let p = flashPower, !(0...1).contains(p) {
            throw .invalidArgument(what: "flash power \(p)", problem: "give 0...1 of the full pulse")
        }
    }

    /// One exposure of `state`'s scene and light, read out: the frame and its 3A statistics.
    private func render(
        mode: SensorReadoutMode, time: Double, state snapshot: State, exposure: ExposureSettings, gains: SIMD3<Double>,
        flashPower: Double?, frameIndex: UInt64
    ) throws(DaguerreError) -> (frame: RawFrame, stats: FrameStatistics) {
        let flash = flashPower != nil
        let sensor = sensor(for: mode)
        let optical = opticalImage(for: mode, scene: snapshot.scene, illuminant: snapshot.illuminant)
        let stabilized = snapshot.isStabilizationEnabled && profile.lens.hasStabilization
        // The moving objects' colours under this frame's light, from the illuminant's one lighting.
        let lighting = SceneLighting.under(snapshot.illuminant)
        let request = ReadoutRequest(
            sensor: sensor, optical: optical, motionScale: motionScale(for: mode), lux: snapshot.lux, exposure: exposure.duration,
            iso: exposure.iso, startTime: time, motion: snapshot.motion, stabilized: stabilized,
            stabilizationReduction: profile.lens.stabilizationReduction, seed: seed, frameIndex: frameIndex,
            flash: flash
                ? FlashPulse(
                    optical: opticalImage(for: mode, scene: snapshot.scene, illuminant: .d65),
                    luxSecondsAtOneMetre: profile.flashLuxSecondsAtOneMetre * (flashPower ?? 0)) : nil,
            objects: snapshot.movingObjects.map { ($0, lighting.srgb($0.reflectance)) },
            fieldSpan: fieldSpan(for: mode))
        let mosaic = try SensorReadout.read(request)
        let stats = FrameStatistics(mosaic)
        let gain = sensor.analogGain(iso: exposure.iso)
        // Lux from metering: mean green electrons over exposure, assuming an 18% average scene.
        let greenElectrons = stats.meanGreen * sensor.fullWellElectrons / gain
        let luxEstimate = greenElectrons / (exposure.duration * sensor.electronsPerLuxSecond * 0.18)
        let d0 = snapshot.motion.displacement(at: time, stabilized: stabilized, reduction: profile.lens.stabilizationReduction)
        let d1 = snapshot.motion.displacement(
            at: time + exposure.duration, stabilized: stabilized, reduction: profile.lens.stabilizationReduction)
        let metadata = FrameMetadata(
            index: frameIndex, timestamp: time, exposureDuration: exposure.duration, iso: exposure.iso,
            analogGain: gain, luxEstimate: luxEstimate, whiteBalanceGains: gains, motion: d0,
            motionSpeed: ((d1 - d0) * (d1 - d0)).sum().squareRoot() / exposure.duration, flashFired: flash)
        return (RawFrame(mosaic: mosaic, metadata: metadata), stats)
    }

    /// The pre-flash (SPEC P13): a weak pulse (1/16 power) is fired and metered against the
    /// ambient frame before it, and the main pulse's power is chosen to bring the centre-weighted
    /// level to the auto-exposure target, at the exposure the next frame would use. Returns the
    /// power for ``captureRAW(mode:at:flashPower:)`` (1 when even full power falls short).
    public func preflash(mode: SensorReadoutMode, at time: Double) throws(DaguerreError) -> Double {
        captureLock.lock()
        defer { captureLock.unlock() }
        let ambient = try captureRAW(mode: mode, at: time)
        let settings = currentExposure
        let saved = exposureControl
        exposureControl = .custom(settings)
        defer { exposureControl = saved }
        let lit = try captureRAW(mode: mode, at: time + 1 / mode.maxFrameRate, flashPower: 1.0 / 16)
        // The ambient level scaled to the settings the lit frame used; the rest is flash.
        let scale =
            lit.metadata.exposureDuration * lit.metadata.analogGain / (ambient.metadata.exposureDuration * ambient.metadata.analogGain)
        let ambientLevel = FrameStatistics(ambient.mosaic).meanGreen * scale
        let fullFlash = max(FrameStatistics(lit.mosaic).meanGreen - ambientLevel, 1e-6) * 16
        let target = AutoExposure(isoRange: sensor(for: mode).isoRange, durationRange: 1.0 / 8000...(1 / mode.maxFrameRate)).target
        return min(max((target - ambientLevel) / fullFlash, 0), 1)
    }

    /// Refuses profiles and modes the readout cannot take (it reads photosites in 2×2 blocks,
    /// allocates per mode, and derives exposure limits from the frame rate).
    static func validate(profile: VirtualCameraProfile, mode: SensorReadoutMode) throws(DaguerreError) {
        for (w, h, what) in [(profile.sensor.width, profile.sensor.height, "sensor"), (mode.width, mode.height, "readout mode")] {
            try Limits.default.check(width: w, height: h, bytesPerPixel: 16, what: "virtual camera \(what)")
            guard w >= 2, h >= 2, w % 2 == 0, h % 2 == 0 else {
                throw .invalidArgument(
                    what: "virtual camera \(what) \(w)×\(h)", problem: "width and height must be even (whole 2×2 Bayer blocks)")
            }
        }
        guard mode.maxFrameRate.isFinite, mode.maxFrameRate >= 1, mode.maxFrameRate <= 1000 else {
            throw .invalidArgument(what: "readout mode frame rate \(mode.maxFrameRate)", problem: "must be 1...1000 fps")
        }
    }

    /// Refuses control state that has no physical meaning (non-finite light, exposure, gains or motion).
    static func validate(_ s: State) throws(DaguerreError) {
        guard s.lux.isFinite else { throw .invalidArgument(what: "light level \(s.lux) lux", problem: "must be finite") }
        guard s.exposure.duration.isFinite, s.exposure.duration > 0, s.exposure.duration <= 60,
            s.exposure.iso.isFinite, s.exposure.iso > 0
        else {
            throw .invalidArgument(
                what: "exposure \(s.exposure.duration) s at ISO \(s.exposure.iso)",
                problem: "give a duration in (0, 60] s and a positive, finite ISO")
        }
        guard s.gains.x.isFinite, s.gains.y.isFinite, s.gains.z.isFinite, s.gains.min() > 0 else {
            throw .invalidArgument(what: "white-balance gains \(s.gains)", problem: "must be positive and finite")
        }
        let m = s.motion
        guard m.shakeSpeed.isFinite, m.shakeSpeed >= 0, m.shakeSpeed <= 1e6, m.pocketDropAcceleration.isFinite,
            m.pocketFadeTime.isFinite, m.pocketFadeTime > 0, m.pocketDropTime?.isFinite ?? true, m.pan?.isValid ?? true
        else {
            throw .invalidArgument(
                what: "camera motion",
                problem: "speeds, times and accelerations must be finite (shake and pan up to 10⁶ px/s, a pan up to an hour)")
        }
        for o in s.movingObjects {
            guard o.centre.x.isFinite, o.centre.y.isFinite, o.velocity.x.isFinite, o.velocity.y.isFinite,
                abs(o.velocity.x) <= 1000, abs(o.velocity.y) <= 1000, o.radius.isFinite, o.radius > 0, o.radius <= 10
            else {
                throw .invalidArgument(
                    what: "moving object at \(o.centre)",
                    problem: "centre and velocity (up to 1000 fields/s) must be finite, radius in (0, 10]")
            }
        }
    }
}
