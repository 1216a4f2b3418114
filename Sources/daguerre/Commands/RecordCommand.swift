import ArgumentParser
import Daguerre
import Dispatch
import Foundation

/// `daguerre record`: records a movie from the virtual back camera and microphone through a
/// capture session and its MovieFileOutput (SPEC C1–C2), in real time.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a QuickTime movie (H.264 + PCM) from the virtual camera with MovieFileOutput, in real time.",
        discussion: "Example: daguerre record --seconds 3 --lux 150 --illuminant A -o clip.mov")

    @Option(help: "How long to record, in seconds.") var seconds: Double
    @OptionGroup var scene: VirtualSceneOptions
    @Flag(help: "Leave the microphone out.") var noAudio = false
    @Option(name: .shortAndLong, help: "The movie file (.mov).") var output: String

    func run() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be between 0 and 3600.") }
        guard let provider = VirtualDeviceProvider.standard else { throw ValidationError("The virtual devices could not be created.") }
        let camera = scene.isFront ? provider.frontCamera : provider.backCamera
        camera.camera.lux = scene.lux
        camera.camera.illuminant = scene.light
        do {
            CaptureAuthorization.shared.usageDescriptions = UsageDescriptions(
                camera: "daguerre record films the virtual scene.",
                microphone: "daguerre record records the virtual scene's sound.")
            let session = CaptureSession()
            let movie = MovieFileOutput()
            session.beginConfiguration()
            try session.addInput(CaptureDeviceInput(device: camera))
            if !noAudio { try session.addInput(CaptureDeviceInput(device: provider.microphone)) }
            try session.addOutput(movie)
            try session.commitConfiguration()
            try session.startRunning()
            let recorded = Result { () throws(DaguerreError) in
                try recordMovie(movie, to: output) { Thread.sleep(forTimeInterval: seconds) }
            }
            session.stopRunning()
            let path = try recorded.get()
            print(
                String(
                    format: "%@: %d frames over %.2f s (%@, %@, %.0f lux)", path, movie.recordedFrameCount, movie.recordedDuration,
                    camera.localizedName, camera.activeFormat.description, scene.lux))
        } catch {
            throw error.commandError
        }
    }
}
