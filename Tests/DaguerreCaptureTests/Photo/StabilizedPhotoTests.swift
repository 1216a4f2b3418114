import DaguerreCapture
import DaguerreCore
import DaguerreVirtualCamera
import Foundation
import Testing

/// Still-image stabilization through the output (SPEC P13): in low light, hand-held, a photo
/// with auto SIS resolves to a fused burst, and its noise is well below an unstabilized photo's
/// (the merge's own SNR, sharpness and ghost figures are measured in BurstMergeTests).
@Suite("PhotoOutput: still-image stabilization", .hangGuard, .serialized)
struct StabilizedPhotoTests {
    /// The standard deviation of green over the centre of a BGRA photo of a flat wall.
    static func centreNoise(_ photo: SampleBuffer) throws -> (mean: Double, sd: Double) {
        let p = try #require(photo.pixelBuffer)
        var values: [Double] = []
        p.withUnsafeBytes { b in
            for y in (p.height / 2 - 60)..<(p.height / 2 + 60) {
                for x in (p.width / 2 - 80)..<(p.width / 2 + 80) { values.append(Double(b[y * p.bytesPerRow + x * 4 + 1])) }
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let sd = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
        return (mean, sd)
    }

    @Test("5 lux, hand-held: the SIS photo is a fused burst with well under the noise of a single-exposure photo at the same level")
    func lowLight() throws {
        let rig = try SmallCamera.running(
            profile: PhotoFlashTests.profile,
            configure: { _, device in
                device.camera.scene = PhotoFlashTests.Wall()
                device.camera.lux = 5
                device.camera.motion = .handheld
            })
        rig.advance(by: 1)
        rig.startTicking()
        defer { rig.stopTicking() }
        let recorder = PhotoRecorder()
        let stabilized = PhotoSettings(format: [.pixelFormatType: .bgra])
        var single = PhotoSettings(format: [.pixelFormatType: .bgra])
        single.isAutoStillImageStabilizationEnabled = false
        try rig.output.capturePhoto(with: stabilized, delegate: recorder)
        try rig.output.capturePhoto(with: single, delegate: recorder)
        #expect(recorder.waitForFinish(2))
        #expect(
            recorder.events == [
                .willBegin, .willCapture, .didCapture, .photo(ok: true, bracket: nil), .finish(ok: true),
                .willBegin, .willCapture, .didCapture, .photo(ok: true, bracket: nil), .finish(ok: true),
            ] || recorder.events(of: stabilized.uniqueID).last == .finish(ok: true))
        #expect(recorder.resolved[stabilized.uniqueID]?.isStillImageStabilizationEnabled == true)
        #expect(recorder.resolved[single.uniqueID]?.isStillImageStabilizationEnabled == false)
        let fused = try Self.centreNoise(try #require(recorder.photos.first { $0.resolved.uniqueID == stabilized.uniqueID }?.buffer))
        let plain = try Self.centreNoise(try #require(recorder.photos.first { $0.resolved.uniqueID == single.uniqueID }?.buffer))
        print(
            String(
                format: "5 lux hand-held: SIS photo level %.1f, noise %.2f; single exposure level %.1f, noise %.2f (%.1f dB)", fused.mean,
                fused.sd, plain.mean, plain.sd, 20 * log10(plain.sd / fused.sd)))
        #expect(abs(fused.mean - plain.mean) < plain.mean * 0.1, "the same level")
        #expect(fused.sd < plain.sd * 0.6)
    }
}
