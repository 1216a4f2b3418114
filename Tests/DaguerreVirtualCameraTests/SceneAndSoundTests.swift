import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreVirtualCamera

/// Image-file scenes and the microphone ("any image file as a scene", "44.1 kHz from
/// the scene's sound").
@Suite struct SceneAndSoundTests {
    @Test("SceneLighting.under(_:) is the lighting a fresh SceneLighting(illuminant:) computes, for every illuminant")
    func sharedLighting() {
        for illuminant in Illuminant.allCases {
            let shared = SceneLighting.under(illuminant)
            let fresh = SceneLighting(illuminant: illuminant)
            #expect(shared.illuminant == illuminant && shared.neutralResponse == fresh.neutralResponse)
            #expect(shared.chartResponses == fresh.chartResponses && shared.srgbToCamera.m == fresh.srgbToCamera.m)
        }
    }

    @Test("An image file as a scene: a half-white, half-18%-grey PNG gives raw levels in that ratio, neutral in every channel")
    func imageScene() throws {
        let dir = try TemporaryDirectory()
        var buffer = try PixelBuffer(width: 400, height: 300, format: .rgb8, colorSpace: .sRGB)
        let grey = UInt8((ColorSpace.sRGB.transfer!.encode(0.18) * 255).rounded())
        let stride = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<300 { for x in 0..<400 { for c in 0..<3 { raw[y * stride + x * 3 + c] = x < 200 ? 255 : grey } } }
        }
        let path = dir.path("scene.png")
        try ImageWriter.write(
            buffer, to: path, options: EncoderOptions(format: .png, width: 400, height: 300, rowFormat: .rgb8, isSRGB: true))
        let profile = smallBackProfile(width: 320, height: 240, vignetting: 0)
        let camera = VirtualCamera(profile: profile, scene: try ImageScene(path: path), seed: 2)
        camera.exposureControl = .custom(ExposureSettings(duration: 1.0 / 100, iso: 25))
        camera.lux = 1000
        let m = try camera.captureRAW(mode: profile.modes[0], at: 0).mosaic
        for color in 0..<3 {
            let white = meanAndVariance(cfaValues(m, color: color, x: 40..<120, y: 60..<180)).mean - 33
            let dark = meanAndVariance(cfaValues(m, color: color, x: 200..<280, y: 60..<180)).mean - 33
            print("image scene, CFA colour \(color): white \(white) DN, 18% grey \(dark) DN, ratio \(dark / white)")
            #expect(abs(dark / white - 0.18) < 0.01, "colour \(color): \(dark / white)")
        }
    }

    @Test("The microphone: a 1 kHz tone crosses zero 2000 times a second; seeded noise repeats; a WAV file plays back")
    func microphone() throws {
        let tone = VirtualMicrophone(sound: .tone(frequency: 1000, amplitude: 0.5)).samples(from: 0, count: 44_100)
        let crossings = zip(tone, tone.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 2000) <= 2, "\(crossings)")
        #expect(tone.max() == Int16(0.5 * 32767))
        let noise = VirtualMicrophone(sound: .noise(amplitude: 0.1), seed: 3)
        let a = noise.samples(from: 1000, count: 4410)
        let b = noise.samples(from: 1000, count: 4410)
        let rms = (a.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(a.count)).squareRoot() / 32767
        #expect(a == b && abs(rms - 0.1) < 0.01, "rms \(rms)")
        // A WAV written by ffmpeg (the judge) reads back as its samples.
        let dir = try TemporaryDirectory()
        let wav = dir.path("beep.wav")
        _ = try Judge.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=44100:duration=0.5", "-c:a", "pcm_s16le", wav])
        guard case .samples(let s) = try VirtualMicrophone.wavSound(path: wav) else {
            Issue.record("not samples")
            return
        }
        #expect(s.count == 22_050)
        let wavCrossings = zip(s, s.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(wavCrossings - 500) <= 2, "\(wavCrossings)")
        let bad = dir.path("bad.wav")
        try Data("RIFF0000WAVEjunk".utf8).write(to: URL(fileURLWithPath: bad))
        #expect(throws: DaguerreError.self) { _ = try VirtualMicrophone.wavSound(path: bad) }
    }
}
