import ArgumentParser
import Daguerre
import Dispatch
import Foundation

/// `daguerre record`: records a movie from the virtual back camera and microphone through a
/// capture session and its MovieFileOutput (issue #4, SPEC C1–C2), in real time.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a QuickTime movie (H.264 + PCM) from the virtual camera with MovieFileOutput, in real time.",
        discussion: "Example: daguerre record --seconds 3 --lux 150 --illuminant A -o clip.mov")

    @Option(help: "How long to record, in seconds.") var seconds: Double
    @Option(help: "back or front.") var device = "back"
    @Option(help: "The scene's light level in lux.") var lux = 400.0
    @Option(help: "D65, A (tungsten) or FL2 (fluorescent).") var illuminant = "D65"
    @Flag(help: "Leave the microphone out.") var noAudio = false
    @Option(name: .shortAndLong, help: "The movie file (.mov).") var output: String

    func run() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be between 0 and 3600.") }
        guard lux.isFinite, lux >= 0, lux <= 200_000 else { throw ValidationError("--lux must be between 0 and 200000.") }
        guard let light = Illuminant(name: illuminant) else { throw ValidationError("--illuminant: use D65, A (tungsten) or FL2 (fluorescent).") }
        guard let provider = VirtualDeviceProvider.standard else { throw ValidationError("The virtual devices could not be created.") }
        let camera: VirtualCaptureDevice
        switch device.lowercased() {
        case "back": camera = provider.backCamera
        case "front": camera = provider.frontCamera
        default: throw ValidationError("--device: use back or front.")
        }
        camera.camera.lux = lux
        camera.camera.illuminant = light
        do {
            CaptureAuthorization.shared.usageDescriptions = UsageDescriptions(camera: "daguerre record films the virtual scene.",
                                                                              microphone: "daguerre record records the virtual scene's sound.")
            let session = CaptureSession()
            let movie = MovieFileOutput()
            session.beginConfiguration()
            try session.addInput(CaptureDeviceInput(device: camera))
            if !noAudio { try session.addInput(CaptureDeviceInput(device: provider.microphone)) }
            try session.addOutput(movie)
            try session.commitConfiguration()
            try session.startRunning()
            let done = DispatchSemaphore(value: 0)
            let outcome = RecordingOutcome()
            try movie.startRecording(to: output) { result in outcome.set(result); done.signal() }
            Thread.sleep(forTimeInterval: seconds)
            movie.stopRecording()
            done.wait()
            session.stopRunning()
            let path = try outcome.get()
            print(String(format: "%@: %d frames over %.2f s (%@, %@, %.0f lux)", path, movie.recordedFrameCount, movie.recordedDuration,
                         camera.localizedName, camera.activeFormat.description, lux))
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// The recording's result, handed from the output's callback to the command.
/// Safety: written once under the lock before the semaphore is signalled, read after.
private final class RecordingOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<String, DaguerreError>?
    func set(_ r: Result<String, DaguerreError>) { lock.lock(); result = r; lock.unlock() }
    func get() throws(DaguerreError) -> String {
        lock.lock(); defer { lock.unlock() }
        guard let result else { throw .captureConfiguration(problem: "the recording finished without a result", fix: "Try again.") }
        return try result.get()
    }
}
