import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// The virtual camera with an X-Trans sensor (SPEC R1, X6): full-resolution stills are 6×6
/// X-Trans mosaics whose scene is known, written as DNGs that a raw converter nobody here wrote
/// (LibRaw, through rawpy) must read as X-Trans and develop to the chart's colours.
@Suite struct XTransCameraTests {
    /// The X-Trans camera at a test size: its one mode is the full readout (so X-Trans).
    static func smallProfile(width: Int = 1008, height: Int = 756) -> VirtualCameraProfile {
        var p = VirtualCameraProfile.xTrans
        p.sensor.width = width
        p.sensor.height = height
        p.modes = [SensorReadoutMode(width: width, height: height, maxFrameRate: 30)]
        p.lens.vignetting = 0
        return p
    }

    @Test("Full readouts are X-Trans, binned ones Bayer; the video ISP refuses an X-Trans mosaic with a typed error")
    func readouts() throws {
        let profile = VirtualCameraProfile.xTrans
        #expect(profile.sensor.filterColors.period == 6)
        let binned = VirtualCamera(profile: profile).sensor(for: profile.modes[0])
        #expect(binned.xTrans == nil && binned.filterColors.period == 2)

        let small = Self.smallProfile(width: 120, height: 90)
        let camera = VirtualCamera(profile: small, seed: 5)
        camera.lux = 400
        let frame = try camera.captureRAW(mode: small.modes[0], at: 0)
        #expect(frame.mosaic.xTrans == .standard)
        // Each photosite reads its own colour's light: on the grey wall red, green and blue differ
        // as the camera's response to the illuminant says, and the 6×6 block's colours follow.
        let colors = small.sensor.filterColors
        var sums = SIMD3<Double>.zero
        var counts = SIMD3<Double>.zero
        for y in 0..<90 {
            for x in 0..<120 {
                let c = colors.color(x: x, y: y)
                sums[c] += Double(frame.mosaic.samples[y * 120 + x])
                counts[c] += 1
            }
        }
        #expect(counts == SIMD3(8, 20, 8) * Double(120 * 90) / 36)
        do {
            _ = try VideoISP(outputPrimaries: .srgb).process(frame.mosaic, whiteBalance: SIMD3(1, 1, 1))
            Issue.record("the video ISP accepted an X-Trans mosaic")
        } catch {
            #expect(error.description.contains("X-Trans"))
        }
    }

    @Test(
        "LibRaw reads the X-Trans camera's DNG of the chart as X-Trans and develops it to the chart's truth under D65")
    func chartThroughLibRaw() throws {
        let (w, h) = (1008, 756)
        let profile = Self.smallProfile(width: w, height: h)
        let camera = VirtualCamera(profile: profile, seed: 41)
        camera.illuminant = .d65
        camera.lux = 800
        var frame = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<20 { frame = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        #expect(frame.mosaic.xTrans == .standard)
        let result = try libRawChartResult(
            camera: camera, frame: frame, illuminant: .d65, colors: profile.sensor.filterColors, name: "virtual-xtrans")
        let mean = try #require(result["mean"] as? Double)
        let worst = try #require(result["max"] as? Double)
        let pattern = try #require(result["raw_pattern"] as? [[Int]])
        print(
            "X-Trans virtual camera DNG through LibRaw: \(pattern.count)×\(pattern.first?.count ?? 0) pattern, mean ΔE2000 \(mean), max \(worst)"
        )
        #expect(pattern.count == 6 && pattern.allSatisfy { $0.count == 6 })
        #expect(mean <= 2, "mean ΔE2000 \(mean)")
    }
}
