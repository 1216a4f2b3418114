// The photo output (SPEC P1–P14, C5, C6, L5, S1–S4, Q1–Q7): the seeds' AVCapturePhotoOutput.
// This file holds the output's state, its capabilities (resolved for the session's camera,
// format and preset) and its opt-ins; capturing is in Photo/PhotoOutput+Capture.swift, the
// pipeline in Photo/PhotoCapturePipeline.swift, scene monitoring and resource preparation in
// files of their own.
import DaguerreCore
import DaguerreMovie
import Dispatch
import Foundation
import Synchronization

/// Takes photos (AVCapturePhotoOutput): one verb, ``capturePhoto(with:delegate:)-(PhotoSettings,_)``,
/// with everything a photo needs in its ``PhotoSettings``, and callbacks to a
/// ``PhotoCaptureDelegate`` in a documented order (P8).
///
/// **Capabilities** (P1) are read-only and follow the session's camera, its active format and
/// the preset: ``availablePhotoPixelFormatTypes``, ``availablePhotoCodecTypes``,
/// ``availableRawPhotoPixelFormatTypes`` (the back camera with the photo preset, R2),
/// ``supportedFlashModes``, ``isStillImageStabilizationSupported``,
/// ``isLensStabilizationDuringBracketedCaptureSupported``, ``maxBracketedCapturePhotoCount``,
/// ``isLivePhotoCaptureSupported``.
///
/// **Opt-ins** that shape the pipeline are set before ``CaptureSession/startRunning()`` (Q7):
/// ``setHighResolutionCaptureEnabled(_:)``, ``setLivePhotoCaptureEnabled(_:)``,
/// ``setLivePhotoAutoTrimmingEnabled(_:)``; while running, changing one rebuilds the pipeline
/// (C6), reported as ``CaptureSessionEvent/pipelineRebuilt(_:)``. Inside
/// `beginConfiguration()`/`commitConfiguration()` they are staged with the rest (C3). Setters
/// throw where the seeds' API raised (L5).
///
/// **Beyond iOS 10**: zero shutter lag (``isZeroShutterLagEnabled``, on by default: a photo is
/// made from the kept frame nearest the request) and responsive capture (a request may begin
/// while earlier photos are processed; ``captureReadiness`` says when the next one would wait),
/// as iOS 17 has them.
///
/// **Live Photos** (L1–L10): with ``isLivePhotoCaptureEnabled`` the output keeps the last 1.5 s
/// of the stream (15 frames a second, a ninth larger than the movie, 4:3) and of the microphone;
/// settings with a ``PhotoSettings/livePhotoMovieFileURL`` get the still and a movie from 1.5 s
/// before to 1.5 s after it (1440×1080 H.264 for a 4:3 camera, PCM audio), paired by one content
/// identifier, trimmed of purposeful motion (``isLivePhotoAutoTrimmingEnabled``) and stabilized.
/// ``isLivePhotoCaptureSuspended`` ends the movies in progress at once.
///
/// ```swift
/// let photoOutput = PhotoOutput()
/// try session.addOutput(photoOutput)
/// try photoOutput.setHighResolutionCaptureEnabled(true)   // before startRunning
/// try session.startRunning()
/// var settings = PhotoSettings()
/// settings.isHighResolutionPhotoEnabled = true
/// try photoOutput.capturePhoto(with: settings, delegate: self)
/// ```
public final class PhotoOutput: CaptureOutput, @unchecked Sendable {
    /// The options that shape the capture pipeline.
    ///
    /// ```swift
    /// photoOutput.pipelineOptions.isLivePhotoCaptureEnabled   // false until opted in
    /// ```
    public struct PipelineOptions: Sendable, Hashable {
        public var isHighResolutionCaptureEnabled = false
        public var isLivePhotoCaptureEnabled = false
        /// Whether Live Photo movies are trimmed of unwanted motion (on by default, as in the seeds).
        public var isLivePhotoAutoTrimmingEnabled = true
        public init(
            isHighResolutionCaptureEnabled: Bool = false, isLivePhotoCaptureEnabled: Bool = false,
            isLivePhotoAutoTrimmingEnabled: Bool = true
        ) {
            self.isHighResolutionCaptureEnabled = isHighResolutionCaptureEnabled
            self.isLivePhotoCaptureEnabled = isLivePhotoCaptureEnabled
            self.isLivePhotoAutoTrimmingEnabled = isLivePhotoAutoTrimmingEnabled
        }

        /// Names of the options that differ between two values.
        func changedNames(from other: PipelineOptions) -> [String] {
            var names: [String] = []
            if isHighResolutionCaptureEnabled != other.isHighResolutionCaptureEnabled { names.append("isHighResolutionCaptureEnabled") }
            if isLivePhotoCaptureEnabled != other.isLivePhotoCaptureEnabled { names.append("isLivePhotoCaptureEnabled") }
            if isLivePhotoAutoTrimmingEnabled != other.isLivePhotoAutoTrimmingEnabled { names.append("isLivePhotoAutoTrimmingEnabled") }
            return names
        }
    }

    /// Everything the output changes after it is made, behind one lock.
    struct State: Sendable {
        var options = PipelineOptions()
        var isLivePhotoCaptureSuspended = false
        var isLivePhotoMovieStabilizationEnabled = true
        var livePhotoMovieEncoder = H264EncoderChoice.x264
        var livePhotoMovieFrameObserver: (@Sendable (URL, PixelBuffer) -> Void)?
        var isZeroShutterLagEnabled = true
        var usedIDs: Set<Int64> = []
        var sceneMonitoringSettings: PhotoSettings?
        var monitor = SceneMonitor()
        var newestFrame: CaptureFrameMetadata?
        var preparedSettings: [PhotoSettings] = [PhotoSettings()]
        var preparation = PhotoResourcePreparation.State()
    }

    let state = Mutex(State())
    let pipeline: PhotoCapturePipeline
    /// The Live Photo buffer and the movies in progress, made when Live Photos are first used.
    private let livePhotoSlot = Mutex<LivePhotoRecorder?>(nil)

    /// The Live Photo recorder, made on first use.
    var livePhoto: LivePhotoRecorder {
        livePhotoSlot.withLock { slot in
            if let made = slot { return made }
            let made = LivePhotoRecorder()
            slot = made
            return made
        }
    }

    /// The Live Photo recorder if Live Photos were used.
    var existingLivePhoto: LivePhotoRecorder? { livePhotoSlot.withLock { $0 } }
    let observers = PhotoOutputObservers()
    /// The develop context, made with the first photo and kept for its caches.
    private let developerSlot = Mutex<PhotoDeveloper?>(nil)

    func developer() throws(DaguerreError) -> PhotoDeveloper {
        if let made = developerSlot.withLock({ $0 }) { return made }
        let made = try PhotoDeveloper()
        developerSlot.withLock { $0 = $0 ?? made }
        return made
    }

    public init() {
        pipeline = PhotoCapturePipeline()
        super.init(role: .photo, acceptedMediaTypes: [.video, .audio])
    }

    // MARK: Opt-ins (P1, Q7)

    /// Whether stills larger than the stream (C5) may be captured.
    public var isHighResolutionCaptureEnabled: Bool { pipelineOptions.isHighResolutionCaptureEnabled }
    /// Whether Live Photos may be captured (L5).
    public var isLivePhotoCaptureEnabled: Bool { pipelineOptions.isLivePhotoCaptureEnabled }
    /// Whether Live Photo movies are trimmed of unwanted motion.
    public var isLivePhotoAutoTrimmingEnabled: Bool { pipelineOptions.isLivePhotoAutoTrimmingEnabled }
    /// The three pipeline-shaping options.
    public var pipelineOptions: PipelineOptions { state.withLock { $0.options } }

    /// Opts in or out of high-resolution stills. While running, rebuilds the pipeline (C6).
    public func setHighResolutionCaptureEnabled(_ enabled: Bool) throws(DaguerreError) {
        try change { $0.isHighResolutionCaptureEnabled = enabled }
    }

    /// Opts in or out of Live Photo capture. Throws with a MovieFileOutput in the session or
    /// without the photo preset (L5). While running, rebuilds the pipeline (C6).
    public func setLivePhotoCaptureEnabled(_ enabled: Bool) throws(DaguerreError) {
        try change { $0.isLivePhotoCaptureEnabled = enabled }
    }

    /// Opts in or out of Live Photo auto-trimming. While running, rebuilds the pipeline (C6).
    public func setLivePhotoAutoTrimmingEnabled(_ enabled: Bool) throws(DaguerreError) {
        try change { $0.isLivePhotoAutoTrimmingEnabled = enabled }
    }

    /// Pauses Live Photo capture (while the app records its own video, say) without tearing
    /// the pipeline down; settable any time.
    /// Suspending ends the Live Photo movies in progress at that instant (their audio too, L8);
    /// resuming starts the buffer clean, so no later movie shows anything from before.
    public var isLivePhotoCaptureSuspended: Bool {
        get { state.withLock { $0.isLivePhotoCaptureSuspended } }
        set {
            let changed = state.withLock { s in
                defer { s.isLivePhotoCaptureSuspended = newValue }
                return s.isLivePhotoCaptureSuspended != newValue
            }
            guard changed else { return }
            guard let recorder = existingLivePhoto else { return }
            if newValue {
                recorder.suspend(at: session?.clock.now ?? .infinity)
            } else {
                recorder.resume()
            }
        }
    }

    /// The H.264 encoder of Live Photo movies (beyond the seeds): x264 (GPL-2, the default) or
    /// OpenH264 (BSD-2); see ``H264EncoderChoice`` for the licence consequence.
    public var livePhotoMovieEncoder: H264EncoderChoice {
        get { state.withLock { $0.livePhotoMovieEncoder } }
        set { state.withLock { $0.livePhotoMovieEncoder = newValue } }
    }

    /// For measuring a Live Photo movie's quality (its benchmark's PSNR): called on the Live
    /// Photo queue with the movie's URL and each frame as it is given to the encoder (RGBA,
    /// converted only while an observer is set).
    @_spi(Measurement) public var livePhotoMovieFrameObserver: (@Sendable (URL, PixelBuffer) -> Void)? {
        get { state.withLock { $0.livePhotoMovieFrameObserver } }
        set { state.withLock { $0.livePhotoMovieFrameObserver = newValue } }
    }

    /// Whether Live Photo movies are stabilized (L10; on by default). Beyond the seeds: for apps
    /// that stabilize movies themselves, and to compare.
    public var isLivePhotoMovieStabilizationEnabled: Bool {
        get { state.withLock { $0.isLivePhotoMovieStabilizationEnabled } }
        set { state.withLock { $0.isLivePhotoMovieStabilizationEnabled = newValue } }
    }

    /// Zero shutter lag (iOS 17): a photo without flash, bracket or stabilization is made from
    /// the kept frame nearest the request's time. On by default; off, a photo is a new exposure
    /// after the request. Settable any time.
    public var isZeroShutterLagEnabled: Bool {
        get { state.withLock { $0.isZeroShutterLagEnabled } }
        set { state.withLock { $0.isZeroShutterLagEnabled = newValue } }
    }

    private func change(_ mutate: @Sendable (inout PipelineOptions) -> Void) throws(DaguerreError) {
        if let session {
            try session.changePipelineOptions(of: self, mutate)
        } else {
            state.withLock { mutate(&$0.options) }
        }
    }

    /// Sets the options without asking the session (the session calls this when it commits them).
    func setOptionsUnchecked(_ new: PipelineOptions) {
        state.withLock { $0.options = new }
    }

    // MARK: Capabilities (P1), for the session's camera, format and preset

    /// The camera the output is connected to, if it takes photos.
    var photoDevice: (any PhotoCaptureDevice)? {
        connection(with: .video)?.inputPort.input.device as? any PhotoCaptureDevice
    }

    /// Whether Live Photos can be captured with this camera and preset: the photo preset, and
    /// no MovieFileOutput in the session (L5).
    public var isLivePhotoCaptureSupported: Bool {
        guard photoDevice != nil, let session, session.sessionPreset == .photo else { return false }
        return !session.outputs.contains { $0 is MovieFileOutput }
    }

    /// The Live Photo movie's shape for the camera's active format (nil without a camera).
    var livePhotoMovieFormat: LivePhotoMovieFormat? {
        photoDevice.map { LivePhotoMovieFormat(streamFormat: $0.activeFormat.dimensions) }
    }

    /// The uncompressed formats a photo can be delivered in (420v, 420f, BGRA, as iOS lists them).
    public var availablePhotoPixelFormatTypes: [PixelFormatType] {
        photoDevice == nil ? [] : [.yuv420VideoRange, .yuv420FullRange, .bgra]
    }

    /// The codecs a photo can be compressed with.
    public var availablePhotoCodecTypes: [PhotoCodec] {
        photoDevice == nil ? [] : [.jpeg]
    }

    /// The RAW formats: the sensor's Bayer order, with the back camera and the photo preset only (R2).
    public var availableRawPhotoPixelFormatTypes: [PixelFormatType] {
        guard let device = photoDevice, session?.sessionPreset == .photo else { return [] }
        let caps = device.photoCapabilities
        guard device.activeFormat.dimensions == caps.sensorDimensions else { return [] }
        return caps.rawPixelFormatTypes
    }

    /// The flash modes settings may ask for: all three with a flash, `.off` without.
    public var supportedFlashModes: [FlashMode] {
        photoDevice?.hasFlash == true ? [.off, .on, .auto] : [.off]
    }

    /// Whether bursts can be fused into one photo (P13).
    public var isStillImageStabilizationSupported: Bool {
        photoDevice?.photoCapabilities.isStillImageStabilizationSupported ?? false
    }

    /// Whether brackets can be exposed with optical stabilization (photo preset, a stabilized lens).
    public var isLensStabilizationDuringBracketedCaptureSupported: Bool {
        (photoDevice?.isLensStabilizationSupported ?? false) && session?.sessionPreset == .photo
    }

    /// The most images one bracket may have (0 without a camera).
    public var maxBracketedCapturePhotoCount: Int {
        photoDevice?.photoCapabilities.maxBracketedCapturePhotoCount ?? 0
    }

    /// The rules' view of the output now. (The session's state is read before the output's
    /// lock is taken: the session calls into the output with its own lock held.)
    func ruleContext() -> PhotoRuleContext {
        let device = photoDevice
        let caps = device?.photoCapabilities
        let running = session?.isRunning ?? false
        let enabled = connection(with: .video)?.isEnabled ?? false
        var context = PhotoRuleContext(
            hasActiveConnection: device != nil && running && enabled, usedIDs: [],
            photoPixelFormatTypes: availablePhotoPixelFormatTypes, photoCodecTypes: availablePhotoCodecTypes,
            rawPixelFormatTypes: availableRawPhotoPixelFormatTypes, supportedFlashModes: supportedFlashModes,
            isStillImageStabilizationSupported: caps?.isStillImageStabilizationSupported ?? false,
            isHighResolutionCaptureEnabled: false, maxBracketedCapturePhotoCount: caps?.maxBracketedCapturePhotoCount ?? 0,
            isoRange: caps?.isoRange ?? 0...0, exposureDurationRange: caps?.exposureDurationRange ?? 0...0,
            exposureTargetBiasRange: caps?.exposureTargetBiasRange ?? 0...0,
            isLensStabilizationDuringBracketedCaptureSupported: isLensStabilizationDuringBracketedCaptureSupported,
            isLivePhotoCaptureEnabled: false, isLivePhotoCaptureSuspended: false)
        state.withLock { s in
            context.usedIDs = s.usedIDs
            context.isHighResolutionCaptureEnabled = s.options.isHighResolutionCaptureEnabled
            context.isLivePhotoCaptureEnabled = s.options.isLivePhotoCaptureEnabled
            context.isLivePhotoCaptureSuspended = s.isLivePhotoCaptureSuspended
        }
        return context
    }

    // MARK: Hooks the session calls

    /// Pixels only for Live Photos: small 4:3 frames, 15 a second (L2); otherwise the frames' facts.
    override var framePixelDemand: FramePixelDemand {
        guard isLivePhotoCaptureEnabled, let format = livePhotoMovieFormat else { return .none }
        return format.demand
    }

    override func deliver(frame: SampleBuffer, from connection: CaptureConnection) {
        guard isLivePhotoCaptureEnabled, !isLivePhotoCaptureSuspended,
            let device = connection.inputPort.input.device as? any PhotoCaptureDevice
        else { return }
        livePhoto.take(frame, sceneTime: device.sceneTime(of: frame.metadata))
    }

    override func deliver(audio: CaptureAudioBuffer, from connection: CaptureConnection) {
        guard isLivePhotoCaptureEnabled, !isLivePhotoCaptureSuspended else { return }
        livePhoto.take(audio)
    }

    override func deliver(metering: CaptureFrameMetadata, from connection: CaptureConnection) {
        let update: SceneMonitoringState? = state.withLock { s in
            s.newestFrame = metering
            guard let monitoring = s.sceneMonitoringSettings, let lux = metering.luxEstimate else { return nil }
            let before = s.monitor.state
            s.monitor.update(lux: lux, considering: considered(monitoring))
            return s.monitor.state == before ? nil : s.monitor.state
        }
        pipeline.frameArrived(metering)
        if let update { observers.publish(scene: update) }
    }

    override func sessionDidStartRunning() {
        pipeline.sessionRunning(true, observers: observers)
        preparationQueue.async { [weak self] in self?.sessionStarted() }
    }

    override func sessionDidStopRunning() {
        existingLivePhoto?.streamEnded()
        pipeline.sessionRunning(false, observers: observers)
        state.withLock { $0.newestFrame = nil }
    }

    override func sessionDidCommitConfiguration() {
        preparationQueue.async { [weak self] in self?.configurationCommitted() }
    }

    /// Serializes resource preparation (off the session's lock).
    let preparationQueue = DispatchQueue(label: "daguerre.photo-output.prepare")

    /// What a photo with `settings` considers for the scene: flash if its mode is not off and
    /// the camera has one; SIS if it asks for auto SIS and can have it (not RAW).
    func considered(_ settings: PhotoSettings, bracket: Bool = false) -> SceneMonitor.Considered {
        SceneMonitor.Considered(
            flash: settings.flashMode != .off && !bracket,
            stabilization: settings.isAutoStillImageStabilizationEnabled && settings.rawPixelFormatType == nil && !bracket)
    }
}
