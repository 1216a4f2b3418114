import DaguerreCore
import DaguerreFormats
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// Flash: light that falls off with the square of the distance, and a pre-flash that
/// meters it, so a flash scene is dark without flash and exposed with it.
@Suite struct FlashTests {
    static func level(_ m: BayerImage) -> Double { FrameStatistics(m).meanGreen }

    @Test("Flash light falls off with the square of the distance: a wall at 2 m gets a quarter of what it gets at 1 m")
    func inverseSquare() throws {
        let profile = smallBackProfile(width: 320, height: 240, vignetting: 0)
        var levels: [Double] = []
        for distance: Float in [1, 2] {
            let camera = VirtualCamera(profile: profile, scene: FlatScene(reflectance: 0.5, distance: distance), seed: 8)
            camera.lux = 0
            camera.exposureControl = .custom(ExposureSettings(duration: 1.0 / 60, iso: 100))
            levels.append(Self.level(try camera.captureRAW(mode: profile.modes[0], at: 0, flashPower: 0.5).mosaic))
        }
        print("flash at 1 m: \(levels[0]), at 2 m: \(levels[1]), ratio \(levels[1] / levels[0])")
        #expect(abs(levels[1] / levels[0] - 0.25) < 0.01)
    }

    @Test(
        "In a dark room (1 lux), the pre-flash picks a power that brings the flash frame to the exposure target; the ambient frame stays dark"
    )
    func preflash() throws {
        let profile = smallBackProfile(width: 320, height: 240, vignetting: 0)
        let camera = VirtualCamera(profile: profile, scene: FlatScene(reflectance: 0.18, distance: 1.5), seed: 8)
        camera.lux = 1
        var ambient = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<12 { ambient = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        // A flash scene: auto-exposure has run out of exposure time and gain.
        let dark = Self.level(ambient.mosaic)
        let power = try camera.preflash(mode: profile.modes[0], at: 1)
        camera.exposureControl = .custom(camera.currentExposure)
        let lit = Self.level(try camera.captureRAW(mode: profile.modes[0], at: 1.2, flashPower: power).mosaic)
        print(
            "dark room: ambient level \(dark) at 1/\(Int(1 / ambient.metadata.exposureDuration)) s ISO \(Int(ambient.metadata.iso)); pre-flash power \(power); flash frame level \(lit) (target 0.14)"
        )
        #expect(dark < 0.14 / 4, "without flash the scene is dark")
        #expect(power > 0 && power < 1)
        #expect(abs(lit / 0.14 - 1) < 0.1, "flash frame \(lit)")
    }
}
