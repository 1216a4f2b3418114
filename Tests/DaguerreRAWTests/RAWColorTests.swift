import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreRAW
import DaguerreTestSupport
import DaguerreVirtualCamera
import Foundation
import Testing

/// RAWFilter's colour at default settings: DNGs of the virtual
/// camera's chart under D65 and tungsten, and of the virtual X-Trans camera's under D65, develop
/// to the chart's truth within mean ΔE2000 2.0.
@Suite struct RAWColorTests {
    /// A settled frame of the chart from a small virtual back camera (or the X-Trans camera), as
    /// a DNG.
    static func chartDNG(_ light: Illuminant, width w: Int = 1008, height h: Int = 756, xTrans: Bool = false) throws -> DNGImage {
        var profile = xTrans ? VirtualCameraProfile.xTrans : VirtualCameraProfile.back
        profile.sensor.width = w
        profile.sensor.height = h
        profile.modes = [SensorReadoutMode(width: w, height: h, maxFrameRate: 30)]
        profile.lens.vignetting = 0
        let camera = VirtualCamera(profile: profile, seed: 41)
        camera.illuminant = light
        camera.lux = 800
        var frame = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<20 { frame = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        return camera.dngImage(for: frame)
    }

    @Test(
        "Virtual-camera chart DNGs develop to the chart's truth at default settings: mean ΔE2000 ≤ 2.0 under D65 and under tungsten, and from the X-Trans camera",
        arguments: [(Illuminant.d65, false), (.tungsten, false), (.d65, true)])
    func chart(light: Illuminant, xTrans: Bool) throws {
        let (w, h) = (1008, 756)
        let dng = try Self.chartDNG(light, width: w, height: h, xTrans: xTrans)
        if xTrans, case .mosaic(let m) = dng.rawData { #expect(m.xTrans == .standard) }
        let raw = try RAWFilter(dng: dng)
        let image = try raw.outputImage()
        let pixels = try LinearPixels(image)
        // The default crop leaves 8 photosites on each side.
        let origin = 8
        let toXYZ = Primaries.srgb.rgbToXYZ
        let adapt = Matrix3.bradfordAdaptation(from: light.whiteXYZ, to: Illuminant.d65.whiteXYZ)
        let studio = StudioScene()
        var measured: [SIMD3<Double>] = []
        var truth: [SIMD3<Double>] = []
        for i in 0..<24 {
            let box = studio.chartPatchBox(i)
            let x0 = Int(box.u.lowerBound * Double(w)) - origin
            let x1 = Int(box.u.upperBound * Double(w)) - origin
            let y0 = Int(box.v.lowerBound * Double(h)) - origin
            let y1 = Int(box.v.upperBound * Double(h)) - origin
            let qx = (x1 - x0) / 4
            let qy = (y1 - y0) / 4
            measured.append(toXYZ * pixels.mean(x: (x0 + qx)..<(x1 - qx), y: (y0 + qy)..<(y1 - qy)))
            truth.append(adapt * Colorimetry.xyz(ofReflectance: Colorimetry.colorChecker[i], under: light))
        }
        // Exposure is the photographer's choice: scaled so neutral 5 has its true luminance.
        let des = try ImageMeasures.deltaE2000(truth: truth, measured: measured, white: Illuminant.d65.whiteXYZ, exposureReference: 21)
        let mean = des.reduce(0, +) / Double(des.count)
        print(
            "RAWFilter chart under \(light)\(xTrans ? " (X-Trans)" : ""): white balance \(Int(raw.neutralTemperature)) K tint \(Int(raw.neutralTint)); mean ΔE2000 \(mean), max \(des.max() ?? 0)"
        )
        #expect(mean <= 2.0, "mean ΔE2000 \(mean): \(des)")
    }

    @Test(
        "Core Image's noise-reduction detail, contrast and sharpness develop (measured in NoiseReductionControlsTests); LinearRaw DNGs with 4 colours are refused by name"
    )
    func refusedByName() throws {
        var raw = try RAWFilter(dng: try Self.chartDNG(.d65, width: 64, height: 48))
        raw.noiseReductionDetailAmount = 0.5
        raw.noiseReductionContrastAmount = 0.5
        raw.noiseReductionSharpnessAmount = 0.5
        _ = try Context().createBuffer(try raw.outputImage(), format: .rgba16, colorSpace: .sRGB)
        let four = try LinearRawImage(
            width: 2, height: 2, samplesPerPixel: 4, bitsPerSample: 16, samples: [UInt16](repeating: 0, count: 16),
            blackLevel: [0, 0, 0, 0], whiteLevel: [65535, 65535, 65535, 65535])
        let e2 = try #require(throws: DaguerreError.self) {
            _ = try RAWFilter(dng: DNGImage(rawData: .linear(four), uniqueCameraModel: "four"))
        }
        #expect(e2.message.contains("4-colour LinearRaw"))
    }
}
