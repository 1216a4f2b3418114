import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import DaguerreVirtualCamera
import Foundation
import Testing

/// The captured JPEG's colour (SPEC W5, P3): the studio chart, photographed through the
/// session with auto-exposure and auto white balance, decoded from the JPEG in the colour space
/// its profile names, against the chart's truth, judged by colour-science's CIEDE2000.
@Suite("PhotoOutput: colour", .hangGuard, .serialized)
struct PhotoColorTests {
    @Test("The captured JPEG of the studio chart: mean ΔE2000 ≤ 2 under D65 and under tungsten", arguments: [Illuminant.d65, .tungsten])
    func chart(light: Illuminant) throws {
        let (w, h) = (1008, 756)
        var profile = SmallCamera.profile(width: w, height: h)
        profile.lens.vignetting = 0
        let rig = try SmallCamera.running(
            profile: profile,
            configure: { _, device in
                device.camera.illuminant = light
                device.camera.lux = 800
            })
        rig.advance(by: 1)
        rig.startTicking()
        defer { rig.stopTicking() }
        let recorder = PhotoRecorder()
        try rig.output.capturePhoto(with: PhotoSettings(), delegate: recorder)
        #expect(recorder.waitForFinish())
        let photo = try #require(recorder.photos.first?.buffer)
        let space = try #require(photo.colorSpace)
        let file = try PhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: nil)
        let pixels = try ImageReader.readAll(data: file)
        #expect(pixels.width == w && pixels.height == h)
        guard case .rgb(let toXYZ, _) = space.model else {
            Issue.record("not an RGB colour space: \(space)")
            return
        }
        let adapt = Matrix3.bradfordAdaptation(from: light.whiteXYZ, to: Illuminant.d65.whiteXYZ)
        let studio = StudioScene()
        var measured: [SIMD3<Double>] = []
        var truth: [SIMD3<Double>] = []
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let bpp = pixels.format.bytesPerPixel
        for i in 0..<24 {
            let box = studio.chartPatchBox(i)
            let x0 = Int(box.u.lowerBound * Double(w))
            let x1 = Int(box.u.upperBound * Double(w))
            let y0 = Int(box.v.lowerBound * Double(h))
            let y1 = Int(box.v.upperBound * Double(h))
            let qx = (x1 - x0) / 4
            let qy = (y1 - y0) / 4
            var sum = SIMD3<Double>()
            var n = 0.0
            pixels.withUnsafeBytes { p in
                for y in (y0 + qy)..<(y1 - qy) {
                    for x in (x0 + qx)..<(x1 - qx) {
                        let o = y * pixels.bytesPerRow + x * bpp
                        sum += SIMD3(linear(p[o]), linear(p[o + 1]), linear(p[o + 2]))
                        n += 1
                    }
                }
            }
            measured.append(toXYZ * (sum / n))
            truth.append(adapt * Colorimetry.xyz(ofReflectance: Colorimetry.colorChecker[i], under: light))
        }
        // Exposure is the camera's choice: scaled so neutral 5 has its true luminance.
        let des = try ImageMeasures.deltaE2000(truth: truth, measured: measured, white: Illuminant.d65.whiteXYZ, exposureReference: 21)
        let mean = des.reduce(0, +) / Double(des.count)
        print(
            String(
                format: "captured JPEG of the chart under %@ (%@): mean ΔE2000 %.2f, max %.2f", "\(light)", space.name, mean,
                des.max() ?? 0))
        #expect(mean <= 2.0, "mean ΔE2000 \(mean): \(des)")
    }
}
