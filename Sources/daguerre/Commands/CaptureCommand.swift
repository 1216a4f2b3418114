import ArgumentParser
import Daguerre
import Dispatch
import Foundation
import Synchronization

/// `daguerre capture` (AVCam's job): photos from a virtual camera through a capture session and
/// its PhotoOutput (SPEC P1–P14), on the host clock. Prints the resolved settings and each
/// request's callbacks with their times, and writes the files through the data representations.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract:
            "Take photos from the virtual camera with PhotoOutput: JPEG, BGRA/420f/420v (as PNG), RAW (DNG), brackets, flash, Live Photos.",
        discussion: """
            Examples:
              daguerre capture -o photos/
              daguerre capture --raw-plus --preview 160x160 -o photos/
              daguerre capture --bracket -2,0,+2 --lux 150 --illuminant A -o photos/
              daguerre capture --manual-bracket 1/30@400,1/125@100 -o photos/
              daguerre capture --device front --high-resolution --format bgra -o photos/
              daguerre capture --flash auto --lux 1 --motion -o photos/
              daguerre capture --live --motion-photo -o photos/
              daguerre capture --motion-photo --encoder openH264 -o photos/
            """)

    @OptionGroup var camera: VirtualSceneOptions
    @OptionGroup var photo: PhotoCaptureOptions
    @Option(
        name: .customLong("scene"),
        help:
            "An image file (JPEG, PNG or TIFF) the camera looks at, as a print 2 m away, or 'studio' (the default: chart, edge card, ramp)."
    )
    var sceneFile: String?
    @Flag(help: "Hold the camera by hand (hand shake, 150 px/s RMS at 12 MP) instead of on a tripod.") var motion = false
    @Option(
        help: """
            The virtual sensor's size, WxH (default: the 12 MP back camera, or the front camera's 5 MP stills). \
            Smaller is faster: the back camera streams half the size, the front camera streams half and takes stills at this size.
            """)
    var sensor: String?
    @Option(help: "How many photos (each its own request; they overlap).") var count = 1
    @Option(name: .shortAndLong, help: "Output folder (created if missing).") var output: String

    /// The built-in scene's name for `--scene` (there is no scene file format: other files are images).
    static let studioSceneName = "studio"
    /// How long auto-exposure and white balance get to settle before the first request.
    static let settleSeconds = 0.5
    /// How long one request may take (real time) before the command gives up.
    static let timeoutSeconds = 600.0

    func validate() throws {
        guard (1...100).contains(count) else { throw ValidationError("--count \(count): give 1 to 100 photos.") }
        _ = try sensorSize()
        if camera.isFront && (photo.raw || photo.rawPlus) {
            throw ValidationError("--device front with --raw/--raw-plus: RAW comes from the back camera only.")
        }
    }

    /// The `--sensor` size, or nil for the standard cameras.
    func sensorSize() throws -> (width: Int, height: Int)? {
        guard let sensor else { return nil }
        let parts = sensor.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (64...8192).contains(w), (48...8192).contains(h),
            w % 4 == 0, h % 4 == 0
        else {
            throw ValidationError("--sensor \(sensor): give WIDTHxHEIGHT, each a multiple of 4 from 64×48 to 8192×8192, e.g. 640x480.")
        }
        return (w, h)
    }

    /// The camera: the standard virtual device, or one whose sensor is `--sensor` in size.
    func makeDevice() throws(DaguerreError) -> VirtualCaptureDevice {
        guard let size = try? sensorSize() else {
            let provider = try VirtualDeviceProvider(seed: 0)
            return camera.isFront ? provider.frontCamera : provider.backCamera
        }
        var profile: VirtualCameraProfile = camera.isFront ? .front : .back
        profile.sensor.width = size.width
        profile.sensor.height = size.height
        // The front camera's largest mode is its still size (slower than the stream), as on the standard one.
        profile.modes = [
            SensorReadoutMode(width: size.width / 2, height: size.height / 2, maxFrameRate: 30),
            SensorReadoutMode(width: size.width, height: size.height, maxFrameRate: camera.isFront ? 15 : 30),
        ]
        return try VirtualCaptureDevice(profile: profile, position: camera.isFront ? .front : .back, seed: 0)
    }

    func run() throws {
        do {
            try execute()
        } catch {
            FileHandle.standardError.write(Data("daguerre capture: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func execute() throws(DaguerreError) {
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw .io(operation: "create the folder", path: output, reason: error.localizedDescription)
        }
        let device = try makeDevice()
        device.camera.lux = camera.lux
        device.camera.illuminant = camera.light
        if motion { device.camera.motion = .handheld }
        if let sceneFile, sceneFile != Self.studioSceneName { device.camera.scene = try ImageScene(path: sceneFile) }

        CaptureAuthorization.shared.usageDescriptions = UsageDescriptions(
            camera: "daguerre capture photographs the virtual scene.", microphone: "daguerre capture records a Live Photo's sound.")
        let session = CaptureSession()
        let photoOutput = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(CaptureDeviceInput(device: device))
        // A Live Photo has the virtual microphone's sound (a 440 Hz tone).
        if photo.livePhoto { try session.addInput(CaptureDeviceInput(device: try VirtualMicrophoneDevice())) }
        try session.addOutput(photoOutput)
        try photoOutput.setHighResolutionCaptureEnabled(photo.highResolution)
        try photoOutput.setLivePhotoCaptureEnabled(photo.livePhoto)
        try photoOutput.setLivePhotoAutoTrimmingEnabled(!photo.noAutoTrim)
        photoOutput.livePhotoMovieEncoder = photo.encoderChoice ?? .x264
        try session.commitConfiguration()
        print(
            "\(device.localizedName), \(device.activeFormat.description), \(Int(camera.lux)) lux, \(camera.light.rawValue)"
                + (motion ? ", hand-held" : ", tripod") + (sceneFile.map { ", scene \($0)" } ?? ", studio scene"))

        // Prepared before running (Q4, Q6): the first photo does not pay for the still mode's
        // resources. The completion comes once the session runs; the photos wait for it.
        let preparation = PreparationWait()
        let started = Date()
        photoOutput.setPreparedPhotoSettingsArray([try photo.request(for: photoOutput).settings]) { prepared, error in
            preparation.finish(prepared, error)
        }
        try session.startRunning()
        defer { session.stopRunning() }
        let (prepared, preparationError) = try preparation.wait(timeout: Self.timeoutSeconds)
        if let preparationError { throw preparationError }
        print(
            String(
                format: "Resources prepared: %@ in %.0f ms after startRunning", prepared ? "yes" : "no",
                Date().timeIntervalSince(started) * 1000))
        // A Live Photo's movie reaches 1.5 s back: let the buffer fill.
        Thread.sleep(forTimeInterval: photo.livePhoto ? LivePhotoMovieFormat.span + Self.settleSeconds : Self.settleSeconds)
        var logs: [PhotoCaptureLog] = []
        for number in 1...count {
            let request = try photo.request(for: photoOutput, number: number, folder: output)
            let log = try PhotoCaptureLog(number: number, folder: output, settings: request.settings)
            switch request {
            case .single(let settings): try photoOutput.capturePhoto(with: settings, delegate: log)
            case .bracket(let bracket): try photoOutput.capturePhoto(with: bracket, delegate: log)
            }
            logs.append(log)
        }
        var failures: [DaguerreError] = []
        for log in logs {
            guard log.wait(timeout: Self.timeoutSeconds) else {
                throw .processorFailed(
                    name: "PhotoOutput", reason: "photo \(log.number) did not finish within \(Int(Self.timeoutSeconds)) s")
            }
            print(log.report)
            failures += log.errors
        }
        if let first = failures.first { throw first }
    }
}

/// Waits for setPreparedPhotoSettingsArray's completion.
final class PreparationWait: Sendable {
    private let result = Mutex<(Bool, DaguerreError?)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ prepared: Bool, _ error: DaguerreError?) {
        result.withLock { $0 = (prepared, error) }
        done.signal()
    }

    func wait(timeout: Double) throws(DaguerreError) -> (Bool, DaguerreError?) {
        guard done.wait(timeout: .now() + timeout) == .success, let r = result.withLock({ $0 }) else {
            throw .processorFailed(name: "PhotoOutput", reason: "resource preparation did not finish within \(Int(timeout)) s")
        }
        return r
    }
}
