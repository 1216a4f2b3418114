import Daguerre
import Foundation

/// Small DNGs from the virtual back camera (its studio scene, exposure settled over ten
/// frames), made in-process: the inputs of the `daguerre develop` runs that the crash-safety
/// tests kill, stop and starve of disk space.
///
/// ```swift
/// try VirtualDNG.write(width: 320, height: 240, to: dir.path("a.dng"))
/// ```
enum VirtualDNG {
    static func write(width: Int, height: Int, seed: UInt64 = 3, to path: String) throws {
        var profile = VirtualCameraProfile.back
        profile.sensor.width = width
        profile.sensor.height = height
        profile.modes = [SensorReadoutMode(width: width, height: height, maxFrameRate: 30)]
        let camera = VirtualCamera(profile: profile, seed: seed)
        var frame = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<10 { frame = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        try DNGWriter.write(camera.dngImage(for: frame), to: path)
    }
}
