import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// Auto-exposure and auto-white-balance, measured on the studio scene.
@Suite struct ControlLoopTests {
    /// The mean of one CFA colour (black subtracted, 0...1 of the range) over the middle half
    /// of a chart patch.
    static func patchMean(_ m: BayerImage, _ index: Int, color: Int) -> Double {
        let box = StudioScene().chartPatchBox(index)
        let w = Double(m.width)
        let h = Double(m.height)
        let qu = (box.u.upperBound - box.u.lowerBound) / 4
        let qv = (box.v.upperBound - box.v.lowerBound) / 4
        let xs = Int((box.u.lowerBound + qu) * w)..<Int((box.u.upperBound - qu) * w)
        let ys = Int((box.v.lowerBound + qv) * h)..<Int((box.v.upperBound - qv) * h)
        let v = cfaValues(m, color: color, x: xs, y: ys)
        return (v.reduce(0, +) / Double(v.count) - 33) / 990
    }

    @Test("After a ±3 EV light change, auto-exposure brings the grey patch back to its target within 10 frames", arguments: [8.0, 1.0 / 8])
    func autoExposure(change: Double) throws {
        let profile = smallBackProfile(width: 640, height: 480)
        let camera = VirtualCamera(profile: profile, seed: 3)
        camera.lux = 300
        var grey: [Double] = []
        for i in 0..<25 {
            grey.append(Self.patchMean(try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30).mosaic, 21, color: 1))
        }
        let target = grey.last!
        let settled = grey.suffix(5).allSatisfy { abs($0 / target - 1) < 0.03 }
        camera.lux = 300 * change
        var after: [Double] = []
        for i in 0..<15 {
            after.append(Self.patchMean(try camera.captureRAW(mode: profile.modes[0], at: 1 + Double(i) / 30).mosaic, 21, color: 1))
        }
        // Frame 0 was exposed for the old light; count the frames until within 5% (0.07 EV).
        let back = after.firstIndex { abs($0 / target - 1) < 0.05 }
        print(
            "AE \(change > 1 ? "+3" : "-3") EV: grey target \(target), back within 5% after \(back.map(String.init) ?? "never") frames; levels \(after.map { ($0 * 1000).rounded() / 1000 })"
        )
        #expect(settled, "AE settles before the change: \(grey.suffix(5))")
        #expect((back ?? 99) <= 10)
        #expect(after.suffix(4).allSatisfy { abs($0 / target - 1) < 0.05 }, "it stays there")
    }

    @Test("Under tungsten, after auto-white-balance, the chart's neutral patches render within ΔE2000 3")
    func autoWhiteBalanceTungsten() throws {
        // No vignetting: the reference rendering has no lens-shading correction, and the test
        // is about colour, not falloff across the chart.
        let profile = smallBackProfile(width: 640, height: 480, vignetting: 0)
        let camera = VirtualCamera(profile: profile, seed: 4)
        camera.illuminant = .tungsten
        camera.lux = 200
        var frame = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<20 { frame = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        let gains = frame.metadata.whiteBalanceGains
        // A simple reference rendering: white-balanced camera RGB → XYZ through the camera's
        // D65 matrix, exposure scaled so neutral 5 has its true luminance.
        let toXYZ = Colorimetry.cameraToXYZ(under: .d65)
        func rendered(_ i: Int) -> SIMD3<Double> {
            let rgb = SIMD3((0..<3).map { Self.patchMean(frame.mosaic, i, color: $0) }) * gains
            return toXYZ * rgb
        }
        let truth = StudioScene.neutralPatchIndices.map { Colorimetry.xyz(ofReflectance: SpectralTables.colorChecker[$0], under: .d65) }
        let scale = truth[3].y / rendered(21).y
        let pairs = zip(truth, StudioScene.neutralPatchIndices.map { rendered($0) * scale }).map {
            [[$0.x, $0.y, $0.z], [$1.x, $1.y, $1.z]]
        }
        let dir = try TemporaryDirectory()
        let spec = dir.path("pairs.json")
        let white = Illuminant.d65.whiteXYZ
        try JSONSerialization.data(withJSONObject: ["white": [white.x, white.y, white.z], "pairs": pairs]).write(
            to: URL(fileURLWithPath: spec))
        let result = try Judge.python("delta_e.py", [spec])
        let des = try #require(result["delta_e"] as? [Double])
        let truthGains = Colorimetry.cameraNeutral(under: .tungsten)
        print(
            "AWB under tungsten: gains \(gains) (exact \(SIMD3(truthGains.y / truthGains.x, 1, truthGains.y / truthGains.z))); neutral patches ΔE2000 \(des)"
        )
        #expect(des.count == 6 && des.allSatisfy { $0 <= 3 }, "\(des)")
    }
}
