// The photographs `daguerre demo` develops when it is given none: the virtual back camera's
// studio scene, shot under a few lights, so the demo needs nothing but itself.
import Daguerre
import Foundation

extension DemoCommand {
    /// The lights the demo's own photographs are shot under, one photograph each (cycled, with a
    /// new seed, when more are asked for).
    static let photographLights: [(name: String, illuminant: Illuminant, lux: Double)] = [
        ("daylight", .d65, 400), ("tungsten", .tungsten, 150), ("fluorescent", .fluorescent, 250), ("dusk", .d65, 30),
    ]

    /// Shoots `count` photographs of the studio scene with the virtual back camera read out at
    /// 1008×756 (auto-exposure and white balance settled on a few frames first), runs each
    /// through the camera's ISP, and writes it to `directory` as a Display P3 PNG. Returns the
    /// directory's path.
    func makePhotographs(in directory: URL, count: Int) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let context = try Context()
        var profile = VirtualCameraProfile.back
        profile.modes = [SensorReadoutMode(width: 1008, height: 756, maxFrameRate: 30)]
        let mode = profile.modes[0]
        print("Shooting \(count) photographs of the virtual studio (12 MP back camera read out at \(mode.width)×\(mode.height)):")
        for i in 0..<count {
            let light = Self.photographLights[i % Self.photographLights.count]
            let name = "studio-\(i + 1)-\(light.name).png"
            try Self.timed("\(name) (\(Int(light.lux)) lux)") {
                let camera = VirtualCamera(profile: profile, seed: UInt64(i + 1))
                camera.illuminant = light.illuminant
                camera.lux = light.lux
                for f in 0..<12 { _ = try camera.captureRAW(mode: mode, at: Double(f) / 30) }
                let frame = try camera.captureRAW(mode: mode, at: 0.4)
                let isp = VideoISP(outputPrimaries: .displayP3)
                let rgba = try YCbCrConversion.makeRGBA(from: try isp.process(frame.mosaic, whiteBalance: frame.metadata.whiteBalanceGains))
                try context.writePNGRepresentation(
                    of: Image(buffer: rgba, colorSpace: .displayP3), to: directory.appendingPathComponent(name),
                    format: .rgb8, colorSpace: .displayP3)
            }
        }
        return directory.path
    }
}
