import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// The virtual camera's raw frames as DNGs, developed by LibRaw (rawpy): its colour matrices,
/// derived from the simulated sensor's spectral sensitivities, must carry the chart's colours
/// through a raw converter nobody here wrote (SPEC R6, W7's physics measured end to end).
@Suite struct DNGInteropTests {
    @Test(
        "LibRaw develops the virtual camera's DNG of the chart to its truth, under D65 and under tungsten",
        arguments: [Illuminant.d65, .tungsten])
    func chartThroughLibRaw(illuminant: Illuminant) throws {
        let (w, h) = (1008, 756)
        let profile = smallBackProfile(width: w, height: h, vignetting: 0)
        let camera = VirtualCamera(profile: profile, seed: 31)
        camera.illuminant = illuminant
        camera.lux = 800
        var frame = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<20 { frame = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        let result = try libRawChartResult(
            camera: camera, frame: frame, illuminant: illuminant, colors: profile.sensor.filterColors,
            name: "virtual-\(illuminant.rawValue)")
        let mean = try #require(result["mean"] as? Double)
        let worst = try #require(result["max"] as? Double)
        print("virtual camera DNG under \(illuminant) through LibRaw: mean ΔE2000 \(mean), max \(worst)")
        // Under tungsten LibRaw renders with the D65 matrix alone (it does not interpolate DNG's
        // two calibrations by temperature), so a camera that is not colorimetric is off by more.
        #expect(mean <= (illuminant == .d65 ? 2 : 4), "mean ΔE2000 \(mean)")
    }
}
