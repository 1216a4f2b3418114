import DaguerreCapture
import DaguerreCore
import DaguerreVirtualCamera
import Foundation
import Testing

/// The flash (SPEC P13): a pre-flash meters the scene, the main pulse is sized to bring the
/// subject to the exposure target, and its light falls off with the square of the distance.
@Suite("PhotoOutput: flash", .hangGuard, .serialized)
struct PhotoFlashTests {
    /// A grey wall: 18 % reflectance; `near` at `nearDistance` inside the centre box, the rest at `farDistance`.
    struct Wall: Scene {
        var nearDistance: Float = 1
        var farDistance: Float = 1
        var cacheKey: String { "flash-wall-\(nearDistance)-\(farDistance)" }
        func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample {
            let near = abs(u - 0.5) < 0.2 && abs(v - 0.5) < 0.2
            return SceneSample(response: lighting.neutral(0.18), distance: near ? nearDistance : farDistance)
        }
    }

    static var profile: VirtualCameraProfile {
        var p = SmallCamera.profile
        p.lens.vignetting = 0
        return p
    }

    /// Mean normalized green (black subtracted, over the white level) of a box of the mosaic.
    static func green(_ m: BayerImage, x: Range<Double>, y: Range<Double>) -> Double {
        var sum = 0.0
        var n = 0
        let black = m.blackLevel[1]
        for yy in Int(y.lowerBound * Double(m.height))..<Int(y.upperBound * Double(m.height)) {
            for xx in Int(x.lowerBound * Double(m.width))..<Int(x.upperBound * Double(m.width)) where m.pattern.color(x: xx, y: yy) == 1 {
                sum += (Double(m.samples[yy * m.width + xx]) - black) / (Double(m.whiteLevel) - black)
                n += 1
            }
        }
        return sum / Double(max(n, 1))
    }

    static func flashPhoto(_ rig: PhotoRig) throws -> SampleBuffer {
        let recorder = PhotoRecorder()
        let raw = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
        var settings = PhotoSettings(rawPixelFormatType: raw)
        settings.flashMode = .on
        try rig.output.capturePhoto(with: settings, delegate: recorder)
        #expect(recorder.waitForFinish())
        #expect(recorder.resolved[settings.uniqueID]?.isFlashEnabled == true)
        return try #require(recorder.photos.first?.buffer)
    }

    @Test("A subject at 1 m in a 1 lux scene lands within ±⅓ EV of the exposure target")
    func exposureAtOneMetre() throws {
        let rig = try SmallCamera.running(
            profile: Self.profile,
            configure: { _, device in
                device.camera.scene = Wall()
                device.camera.lux = 1
            })
        rig.advance(by: 1)  // auto-exposure settles in the dark
        let photo = try Self.flashPhoto(rig)
        let mosaic = try #require(photo.bayerImage)
        let level = FrameStatistics(mosaic).meanGreen
        let target = AutoExposure(isoRange: 25...2000, durationRange: (1.0 / 8000)...(1.0 / 30)).target
        let ev = log2(level / target)
        print(String(format: "flash at 1 m, 1 lux: level %.4f, target %.4f, %+.2f EV", level, target, ev))
        #expect(abs(ev) <= 1.0 / 3)
    }

    @Test("At 2 m the subject gets a quarter of the flash light it gets at 1 m (inverse square, measured without the ambient light)")
    func inverseSquare() throws {
        let rig = try SmallCamera.running(
            profile: Self.profile,
            configure: { _, device in
                device.camera.scene = Wall(nearDistance: 1, farDistance: 2)
                device.camera.lux = 1
            })
        rig.advance(by: 1)
        let photo = try Self.flashPhoto(rig)
        let lit = try #require(photo.bayerImage)
        // The ambient light alone, at the flash photo's own exposure: a one-image manual bracket.
        let recorder = PhotoRecorder()
        let raw = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
        let exposure = photo.metadata
        let bracket = PhotoBracketSettings(
            rawPixelFormatType: raw, processedFormat: nil,
            bracketedSettings: [.manualExposure(duration: exposure.exposureDuration, iso: exposure.iso)])
        try rig.output.capturePhoto(with: bracket, delegate: recorder)
        #expect(recorder.waitForFinish())
        let ambient = try #require(recorder.photos.first?.buffer?.bayerImage)
        let nearBox = (x: 0.38..<0.62, y: 0.38..<0.62)
        let farBox = (x: 0.05..<0.2, y: 0.38..<0.62)
        let near = Self.green(lit, x: nearBox.x, y: nearBox.y) - Self.green(ambient, x: nearBox.x, y: nearBox.y)
        let far = Self.green(lit, x: farBox.x, y: farBox.y) - Self.green(ambient, x: farBox.x, y: farBox.y)
        print(String(format: "flash light at 1 m %.4f, at 2 m %.4f: ratio %.3f (inverse square 0.25)", near, far, far / near))
        #expect(abs(far / near - 0.25) < 0.02)
    }
}
