import DaguerreCapture
import DaguerreCore
import DaguerreVirtualCamera
import Dispatch
import Foundation
import Synchronization

/// A photo delegate that takes every kind of photo and records each callback in order.
final class PhotoRecorder: PhotoProcessingDelegate, RawPhotoProcessingDelegate, LivePhotoMovieProcessingDelegate, Sendable {
    enum Event: Sendable, Equatable {
        case willBegin, willCapture, didCapture
        case photo(ok: Bool, bracket: BracketedStillImageSettings?)
        case raw(ok: Bool, bracket: BracketedStillImageSettings?)
        case finish(ok: Bool)
        case movieRecorded
        case movie(ok: Bool)
    }

    /// A Live Photo movie as its callback gave it.
    struct Movie: Sendable {
        var url: URL
        var duration: Double
        var photoDisplayTime: Double
        var error: DaguerreError?
        /// Real seconds since the recorder was made, when each callback came.
        var recordedAt: Double?
        var finishedAt: Double
    }

    struct Photo: Sendable {
        var buffer: SampleBuffer?
        var preview: SampleBuffer?
        var resolved: ResolvedPhotoSettings
        var error: DaguerreError?
        var isRAW: Bool
        var time: Double
    }

    private let log = Mutex<(events: [(Int64, Event)], photos: [Photo], resolved: [Int64: ResolvedPhotoSettings])>(([], [], [:]))
    private let movieLog = Mutex<(recorded: [Int64: Double], movies: [Int64: Movie])>(([:], [:]))
    /// The Live Photo movies by request.
    var movies: [Int64: Movie] { movieLog.withLock { $0.movies } }
    private let finished = DispatchSemaphore(value: 0)
    private let started = Date()

    var events: [Event] { log.withLock { $0.events.map(\.1) } }
    func events(of id: Int64) -> [Event] { log.withLock { $0.events.filter { $0.0 == id }.map(\.1) } }
    var photos: [Photo] { log.withLock { $0.photos } }
    /// The requests' IDs in the order their didFinish came.
    var finishOrder: [Int64] { log.withLock { $0.events.filter { $0.1 == .finish(ok: true) || $0.1 == .finish(ok: false) }.map(\.0) } }
    var resolved: [Int64: ResolvedPhotoSettings] { log.withLock { $0.resolved } }

    private func record(_ r: ResolvedPhotoSettings, _ e: Event) {
        log.withLock {
            $0.events.append((r.uniqueID, e))
            $0.resolved[r.uniqueID] = r
        }
    }

    /// Waits (real time) for `count` didFinish callbacks.
    @discardableResult
    func waitForFinish(_ count: Int = 1, timeout: Double = 120) -> Bool {
        for _ in 0..<count where finished.wait(timeout: .now() + timeout) == .timedOut { return false }
        return true
    }

    func capture(_ captureOutput: PhotoOutput, willBeginCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        record(resolvedSettings, .willBegin)
    }
    func capture(_ captureOutput: PhotoOutput, willCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        record(resolvedSettings, .willCapture)
    }
    func capture(_ captureOutput: PhotoOutput, didCapturePhotoForResolvedSettings resolvedSettings: ResolvedPhotoSettings) {
        record(resolvedSettings, .didCapture)
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        record(resolvedSettings, .photo(ok: photoSampleBuffer != nil && error == nil, bracket: bracketSettings))
        let t = Date().timeIntervalSince(started)
        log.withLock {
            $0.photos.append(
                Photo(
                    buffer: photoSampleBuffer, preview: previewPhotoSampleBuffer, resolved: resolvedSettings, error: error, isRAW: false,
                    time: t))
        }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingRawPhotoSampleBuffer rawSampleBuffer: SampleBuffer?,
        previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?,
        error: DaguerreError?
    ) {
        record(resolvedSettings, .raw(ok: rawSampleBuffer != nil && error == nil, bracket: bracketSettings))
        let t = Date().timeIntervalSince(started)
        log.withLock {
            $0.photos.append(
                Photo(
                    buffer: rawSampleBuffer, preview: previewPhotoSampleBuffer, resolved: resolvedSettings, error: error, isRAW: true,
                    time: t))
        }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: ResolvedPhotoSettings
    ) {
        record(resolvedSettings, .movieRecorded)
        let t = Date().timeIntervalSince(started)
        movieLog.withLock { $0.recorded[resolvedSettings.uniqueID] = t }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: Double,
        photoDisplayTime: Double, resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        record(resolvedSettings, .movie(ok: error == nil))
        let t = Date().timeIntervalSince(started)
        movieLog.withLock {
            $0.movies[resolvedSettings.uniqueID] = Movie(
                url: outputFileURL, duration: duration, photoDisplayTime: photoDisplayTime, error: error,
                recordedAt: $0.recorded[resolvedSettings.uniqueID], finishedAt: t)
        }
    }
    func capture(
        _ captureOutput: PhotoOutput, didFinishCaptureForResolvedSettings resolvedSettings: ResolvedPhotoSettings, error: DaguerreError?
    ) {
        record(resolvedSettings, .finish(ok: error == nil))
        finished.signal()
    }
}

/// A small virtual camera (640×480 sensor, 320×240 and 640×480 modes) for fast photo tests.
enum SmallCamera {
    static var profile: VirtualCameraProfile { profile(width: 640, height: 480) }

    /// The back camera's module with a `width`×`height` sensor and a half-size stream.
    static func profile(width: Int, height: Int) -> VirtualCameraProfile {
        var p = VirtualCameraProfile.back
        p.sensor.width = width
        p.sensor.height = height
        p.modes = [
            SensorReadoutMode(width: width / 2, height: height / 2, maxFrameRate: 30),
            SensorReadoutMode(width: width, height: height, maxFrameRate: 30),
        ]
        return p
    }

    /// A session on a virtual clock with `device` as its camera and a photo output, configured
    /// and not started.
    static func configured(
        _ device: any CaptureDevice, preset: CaptureSession.Preset = .photo, configure: (PhotoOutput) throws -> Void = { _ in }
    ) throws -> (CaptureSession, PhotoOutput, VirtualClock) {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let output = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(preset)
        try session.addInput(
            CaptureDeviceInput(device: device, authorization: CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "tests"))))
        try session.addOutput(output)
        try configure(output)
        try session.commitConfiguration()
        return (session, output, clock)
    }

    /// A running session with the small back camera and a photo output, on a virtual clock
    /// that a background thread advances in real time (so zero shutter lag sees new frames).
    static func running(
        preset: CaptureSession.Preset = .photo, seed: UInt64 = 1, profile: VirtualCameraProfile = profile,
        wrap: (VirtualCaptureDevice) -> any CaptureDevice = { $0 },
        configure: (PhotoOutput, VirtualCaptureDevice) throws -> Void = { _, _ in }
    ) throws -> PhotoRig {
        let device = try VirtualCaptureDevice(profile: profile, position: .back, seed: seed)
        let (session, output, clock) = try configured(wrap(device), preset: preset) { output in try configure(output, device) }
        try session.startRunning()
        let rig = PhotoRig(session: session, output: output, device: device, clock: clock)
        rig.advance(by: 0.5)  // auto-exposure and white balance settle
        return rig
    }
}

/// A running photo session on a virtual clock.
final class PhotoRig: Sendable {
    let session: CaptureSession
    let output: PhotoOutput
    let device: VirtualCaptureDevice
    let clock: VirtualClock
    private let ticking = Atomic<Bool>(false)
    /// Held while the ticker advances, and by ``paused(_:)``.
    private let tick = Mutex(())

    init(session: CaptureSession, output: PhotoOutput, device: VirtualCaptureDevice, clock: VirtualClock) {
        self.session = session
        self.output = output
        self.device = device
        self.clock = clock
    }

    func advance(by seconds: Double) { clock.advance(by: seconds) }

    /// Advances the clock a frame at a time in the background until `stopTicking`.
    /// Advances the clock by `step` every `step` of real time (frames come as the clock
    /// passes them), in the background until ``stopTicking()``.
    func startTicking(step: Double = 1.0 / 30) {
        ticking.store(true, ordering: .relaxed)
        let clock = self.clock
        Thread.detachNewThread { [self] in
            while ticking.load(ordering: .relaxed) {
                tick.withLock { _ in clock.advance(by: step) }
                Thread.sleep(forTimeInterval: step)
            }
        }
    }

    func stopTicking() { ticking.store(false, ordering: .relaxed) }

    /// Runs `body` with the ticker held, after moving the clock on to `time` (if later).
    func paused<R>(at time: Double, _ body: () throws -> R) rethrows -> R {
        try tick.withLock { _ in
            if time > clock.now { clock.advance(by: time - clock.now) }
            return try body()
        }
    }

    deinit { session.stopRunning() }
}
