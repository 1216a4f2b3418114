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
        let dir = try TemporaryDirectory()
        let path = dir.path("virtual-\(illuminant.rawValue).dng")
        try DNGWriter.write(camera.dngImage(for: frame), to: path)
        SampleFiles.keep(path)

        // Patches in mosaic coordinates; truth is the chart's XYZ under the scene's light, adapted
        // to D65 (Bradford): what a colour-constant camera would render.
        let studio = StudioScene()
        let black = frame.mosaic.blackLevel[0]
        let range = Double(frame.mosaic.whiteLevel) - black
        var patches: [[String: Any]] = []
        var greyLevel = 0.0
        for i in 0..<24 {
            let box = studio.chartPatchBox(i)
            let x = Int(box.u.lowerBound * Double(w))
            let y = Int(box.v.lowerBound * Double(h))
            let size = Int((box.u.upperBound - box.u.lowerBound) * Double(w))
            let adapt = Matrix3.bradfordAdaptation(from: illuminant.whiteXYZ, to: Illuminant.d65.whiteXYZ)
            let xyz = adapt * Colorimetry.xyz(ofReflectance: SpectralTables.colorChecker[i], under: illuminant)
            patches.append(["x": x, "y": y, "size": size, "xyz": [xyz.x, xyz.y, xyz.z]])
            if i == 21 {
                var sum = 0.0
                var n = 0.0
                for yy in y + size / 4..<y + 3 * size / 4 {
                    for xx in x + size / 4..<x + 3 * size / 4 where frame.mosaic.pattern.color(x: xx, y: yy) == 1 {
                        sum += Double(frame.mosaic.samples[yy * w + xx])
                        n += 1
                    }
                }
                greyLevel = (sum / n - black) / range / xyz.y
            }
        }
        // "exposure": the output level of a 100% reflector, from neutral 5's green.
        let spec = dir.path("chart.json")
        try JSONSerialization.data(withJSONObject: ["exposure": greyLevel, "patches": patches]).write(to: URL(fileURLWithPath: spec))
        let result = try Judge.python("dng_judge.py", ["develop", path, spec])
        let mean = try #require(result["mean"] as? Double)
        let worst = try #require(result["max"] as? Double)
        print("virtual camera DNG under \(illuminant) through LibRaw: mean ΔE2000 \(mean), max \(worst)")
        // Under tungsten LibRaw renders with the D65 matrix alone (it does not interpolate DNG's
        // two calibrations by temperature), so a camera that is not colorimetric is off by more.
        #expect(mean <= (illuminant == .d65 ? 2 : 4), "mean ΔE2000 \(mean)")
    }
}
