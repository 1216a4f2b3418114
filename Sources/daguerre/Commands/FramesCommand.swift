import ArgumentParser
import Daguerre
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import Foundation

/// `daguerre frames`: streams frames from a virtual camera and writes them as PNG.
/// Frames are timed on a virtual clock at 30 fps, so the output is the same for a seed however
/// fast the machine is.
struct FramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Stream frames from the virtual camera (studio scene) and write them as PNG.",
        discussion: "Example: daguerre frames --device back --lux 150 --illuminant A --seed 7 --count 30 -o frames/")

    @OptionGroup var scene: VirtualSceneOptions
    @Option(help: "Seed for the sensor noise and the shake.") var seed: UInt64 = 0
    @Option(help: "How many frames.") var count: Int
    @Option(help: "sRGB or displayP3.") var colorspace = "sRGB"
    @Flag(help: "Hold the camera by hand (shake) instead of on a tripod.") var handheld = false
    @Option(name: .shortAndLong, help: "Output folder (created if missing).") var output: String

    func run() throws {
        do { try execute() } catch let e as DaguerreError { throw e.commandError }
    }

    func execute() throws {
        let profile: VirtualCameraProfile = scene.isFront ? .front : .back
        guard (1...100_000).contains(count) else {
            throw DaguerreError.invalidArgument(what: "--count \(count)", problem: "give 1 to 100000 frames")
        }
        let space: ColorSpace
        switch colorspace.lowercased() {
        case "srgb": space = .sRGB
        case "displayp3", "p3": space = .displayP3
        default: throw DaguerreError.invalidArgument(what: "--colorspace \(colorspace)", problem: "use sRGB or displayP3")
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw DaguerreError.io(operation: "create the folder", path: output, reason: error.localizedDescription)
        }
        let camera = VirtualCamera(profile: profile, seed: seed)
        camera.illuminant = scene.light
        camera.lux = scene.lux
        if handheld { camera.motion = .handheld }
        let isp = VideoISP(outputPrimaries: space == .displayP3 ? .displayP3 : .srgb)
        let icc = try space.iccProfileData()
        let mode = profile.modes[0]
        var last: FrameMetadata?
        for i in 0..<count {
            let frame = try camera.captureRAW(mode: mode, at: Double(i) / mode.maxFrameRate)
            let yuv = try isp.process(frame.mosaic, whiteBalance: frame.metadata.whiteBalanceGains, fullRange: true)
            let rgba = try YCbCrConversion.makeRGBA(from: yuv)
            let path = (output as NSString).appendingPathComponent(String(format: "frame_%05d.png", i))
            try ImageWriter.write(
                rgba, to: path,
                options: EncoderOptions(
                    format: .png, width: rgba.width, height: rgba.height,
                    rowFormat: .rgba8, iccProfile: icc, isSRGB: space == .sRGB))
            last = frame.metadata
        }
        if let m = last {
            print(
                String(
                    format: "%d frames %dx%d (%@, %@) in %@; last: 1/%.0f s, ISO %.0f, lux estimate %.0f, WB gains %.2f/1/%.2f",
                    count, mode.width, mode.height, profile.name, space.name, output, 1 / m.exposureDuration, m.iso, m.luxEstimate,
                    m.whiteBalanceGains.x, m.whiteBalanceGains.z))
        }
    }
}
