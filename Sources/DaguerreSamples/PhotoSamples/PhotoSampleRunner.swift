// Runs every photo sample of the seeds against virtual cameras, as an app would: a session with
// the photo preset, resources prepared before it starts, photos in daylight, then the light
// dimmed for scene monitoring, still-image stabilization and the flash; the high-resolution
// photo on the front camera. Not from the seeds: the seeds show the requests, not the app.
import DaguerreCapture
import DaguerreCore
import Foundation

/// Runs the seeds' photo samples (``PhotoSamples``) one after another and collects a
/// ``PhotoSampleRecord`` for each. The JPEGs and DNGs go to `folder`.
///
/// ```swift
/// let provider = try VirtualDeviceProvider(seed: 0)
/// let runner = PhotoSampleRunner(back: provider.backCamera, front: provider.frontCamera, folder: "/tmp/photos")
/// for record in try runner.runAll() { print(record.summary) }
/// ```
public struct PhotoSampleRunner: Sendable {
    public let back: VirtualCaptureDevice
    public let front: VirtualCaptureDevice
    public let folder: String
    /// How long a sample may take before the run gives up on it (real seconds).
    public var timeout: Double

    /// The light levels the run uses: daylight indoors, a still-image-stabilization scene and a
    /// flash scene (see the scene monitor's table: SIS below 100 lux, flash below 2 with SIS considered).
    public static let daylightLux = 400.0
    public static let dimLux = 30.0
    public static let darkLux = 1.0

    public init(back: VirtualCaptureDevice, front: VirtualCaptureDevice, folder: String, timeout: Double = 600) {
        self.back = back
        self.front = front
        self.folder = folder
        self.timeout = timeout
    }

    /// Runs every sample; `progress` gets each record as it is done.
    public func runAll(progress: (PhotoSampleRecord) -> Void = { _ in }) throws(DaguerreError) -> [PhotoSampleRecord] {
        var records: [PhotoSampleRecord] = []
        func keep(_ record: PhotoSampleRecord) {
            records.append(record)
            progress(record)
        }
        let light = back.camera.lux
        defer { back.camera.lux = light }
        back.camera.lux = Self.daylightLux

        // The back camera: the photo preset and high resolution.
        let (session, output) = try Self.session(for: back)
        let samples = PhotoSamples(photoOutput: output, folder: folder)
        samples.begin("setPreparedPhotoSettingsArray")
        samples.prepareForCaptures()  // before startRunning, as session 511 advises
        try session.startRunning()
        defer { session.stopRunning() }
        if !samples.waitForPreparation(timeout: timeout) { samples.noteError(timedOut("setPreparedPhotoSettingsArray")) }
        keep(samples.end())
        Thread.sleep(forTimeInterval: 0.5)  // auto-exposure and white balance settle

        keep(try run(samples, "takePhotoWithPreviewImage") { (s) throws(DaguerreError) in try s.takePhotoWithPreviewImage() })
        keep(try run(samples, "takeBGRAPhoto") { (s) throws(DaguerreError) in try s.takeBGRAPhoto() })
        keep(try run(samples, "takeAutoExposureBracket") { (s) throws(DaguerreError) in try s.takeAutoExposureBracket() })
        keep(try run(samples, "takeManualExposureBracket") { (s) throws(DaguerreError) in try s.takeManualExposureBracket() })
        keep(try run(samples, "takeRawPhoto") { (s) throws(DaguerreError) in try s.takeRawPhoto() })
        keep(try run(samples, "takeRAWPlusJPEGPhoto") { (s) throws(DaguerreError) in try s.takeRAWPlusJPEGPhoto() })

        // Scene monitoring over a light sweep: daylight, dim (SIS), dark (flash), daylight.
        samples.begin("sceneMonitoring")
        samples.startSceneMonitoring()
        for (lux, wanted) in [
            (Self.dimLux, SceneMonitoringState(isStillImageStabilizationScene: true)),
            (Self.darkLux, SceneMonitoringState(isFlashScene: true)), (Self.daylightLux, SceneMonitoringState()),
        ] {
            back.camera.lux = lux
            if !waitForScene(wanted, of: output) { samples.noteError(timedOut("the scene monitor at \(lux) lux")) }
        }
        // The observer is called just after the output's flags change: wait until it has noted
        // the last change.
        for _ in 0..<200 {
            let noted = samples.notedScenes
            if noted.contains(SceneMonitoringState(isFlashScene: true)), noted.last == SceneMonitoringState() { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        keep(samples.end())

        // A photo with the monitored settings in a dim scene: stabilized, as the monitor says.
        back.camera.lux = Self.dimLux
        _ = waitForScene(SceneMonitoringState(isStillImageStabilizationScene: true), of: output)
        keep(try run(samples, "takeMonitoredPhoto") { (s) throws(DaguerreError) in try s.takeMonitoredPhoto() })
        // The flash photo in the dark: auto flash fires.
        back.camera.lux = Self.darkLux
        _ = waitForScene(SceneMonitoringState(isFlashScene: true), of: output)
        keep(try run(samples, "takeFlashPhoto") { (s) throws(DaguerreError) in try s.takeFlashPhoto() })
        samples.stopSceneMonitoring()
        back.camera.lux = Self.daylightLux

        // Live Photos, opted into now (the pipeline is rebuilt, C6) so that the other samples
        // do not pay for the buffer; it fills for 1.5 s before the shutter.
        try output.setLivePhotoCaptureEnabled(true)
        Thread.sleep(forTimeInterval: 1.6)
        keep(try run(samples, "takeLivePhoto") { (s) throws(DaguerreError) in try s.takeLivePhoto() })

        // The front camera: 5 MP stills from a 1280×960 stream.
        let (frontSession, frontOutput) = try Self.session(for: front)
        let frontSamples = PhotoSamples(photoOutput: frontOutput, folder: folder)
        try frontSession.startRunning()
        defer { frontSession.stopRunning() }
        Thread.sleep(forTimeInterval: 0.5)
        keep(try run(frontSamples, "takeHighResolutionPhoto") { (s) throws(DaguerreError) in try s.takeHighResolutionPhoto() })
        return records
    }

    /// A configured session with the photo preset, `device` and a PhotoOutput opted into high
    /// resolution, not yet running.
    static func session(for device: VirtualCaptureDevice) throws(DaguerreError) -> (CaptureSession, PhotoOutput) {
        let session = CaptureSession()
        let output = PhotoOutput()
        let authorization = CaptureAuthorization(
            usageDescriptions: UsageDescriptions(camera: "The seeds' photo samples photograph the virtual scene."))
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(CaptureDeviceInput(device: device, authorization: authorization))
        try session.addOutput(output)
        try output.setHighResolutionCaptureEnabled(true)
        try session.commitConfiguration()
        return (session, output)
    }

    /// Runs one sample: its request, then its didFinishCapture (none when the request is refused).
    private func run(_ samples: PhotoSamples, _ name: String, _ take: (PhotoSamples) throws(DaguerreError) -> Void)
        throws(DaguerreError) -> PhotoSampleRecord
    {
        samples.begin(name)
        do {
            try take(samples)
        } catch {
            samples.noteRequestError(error)
            return samples.end()
        }
        if !samples.waitForFinish(timeout: timeout) {
            _ = samples.end()
            throw timedOut(name)
        }
        return samples.end()
    }

    private func waitForScene(_ wanted: SceneMonitoringState, of output: PhotoOutput) -> Bool {
        let deadline = Date().addingTimeInterval(min(timeout, 30))
        while Date() < deadline {
            if output.isFlashScene == wanted.isFlashScene && output.isStillImageStabilizationScene == wanted.isStillImageStabilizationScene
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    private func timedOut(_ what: String) -> DaguerreError {
        .processorFailed(name: "PhotoSampleRunner", reason: "\(what) did not finish within \(timeout) s")
    }
}
