import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// `daguerre develop` (RAWExpose's job): batch development with progress, sidecars,
/// EXIF carried over, and clear errors that do not stop the batch.
@Suite struct DevelopCLITests {
    @Test(
        "develop: two DNGs and a broken file into a folder; sidecar applied; EXIF carried over (exiftool); the output's extension decides its format"
    )
    func batch() throws {
        let dir = try TemporaryDirectory()
        var profile = VirtualCameraProfile.back
        profile.sensor.width = 320
        profile.sensor.height = 240
        profile.modes = [SensorReadoutMode(width: 320, height: 240, maxFrameRate: 30)]
        let camera = VirtualCamera(profile: profile, seed: 3)
        var frame = try camera.captureRAW(mode: profile.modes[0], at: 0)
        for i in 1..<10 { frame = try camera.captureRAW(mode: profile.modes[0], at: Double(i) / 30) }
        let a = dir.path("a.dng")
        let b = dir.path("b.dng")
        let broken = dir.path("broken.dng")
        try DNGWriter.write(camera.dngImage(for: frame), to: a)
        try DNGWriter.write(camera.dngImage(for: frame), to: b)
        try Data([0x49, 0x49, 0x2A, 0x00, 1, 2, 3]).write(to: URL(fileURLWithPath: broken))
        try RAWAdjustments(["temperature": 4000]).writeSidecar(for: b)
        let out = dir.path("developed")
        let r = try CLITests.run(["develop", a, broken, b, "-o", out, "--colorspace", "sRGB"])
        #expect(r.status != 0, "a broken input makes the batch fail at the end")
        #expect(r.err.contains("broken.dng"), "\(r.err)")
        #expect(r.out.contains("1/3") && r.out.contains("3/3"), "\(r.out)")
        #expect(r.out.contains("4000 K"), "the sidecar's white balance: \(r.out)")
        #expect(FileManager.default.fileExists(atPath: out + "/a.jpg") && FileManager.default.fileExists(atPath: out + "/b.jpg"))
        let exif = try Judge.run("exiftool", ["-s3", "-Make", "-Model", "-ISO", out + "/a.jpg"])
        #expect(exif.contains("Daguerre") && exif.contains("Virtual Back Camera"), "\(exif)")
        let scaled = try CLITests.run(["develop", a, "-o", dir.path("s.png"), "--scale", "0.5"])
        #expect(scaled.status == 0, "\(scaled.err)")
        let half = try ImageReader.open(path: dir.path("s.png")).info
        #expect(half.format == .png && half.width == (320 - 16) / 2, "the extension decides the format; half size: \(half)")
        let clash = try CLITests.run(["develop", a, "-o", dir.path("c.png"), "--format", "jpeg"])
        #expect(clash.status != 0 && clash.err.contains("agree"), "\(clash.err)")
        let tiff = try CLITests.run([
            "develop", a, "-o", dir.path("a.tif"), "--format", "tiff16", "--exposure", "0.5",
            "--noise-reduction-detail", "0.5", "--noise-reduction-contrast", "0.2", "--noise-reduction-sharpness", "0.5",
        ])
        #expect(tiff.status == 0, "\(tiff.err)")
        let info = try ImageReader.open(path: dir.path("a.tif")).info
        #expect(info.pixelFormat == .rgb16 && info.colorSpace.name == "Display P3")
        let outOfRange = try CLITests.run(["develop", a, "-o", dir.path("d.jpg"), "--noise-reduction-detail", "2"])
        #expect(outOfRange.status != 0 && outOfRange.err.contains("noiseReductionDetailAmount"), "\(outOfRange.err)")
        // An older pipeline version on the command line (X5), and an unknown one refused by name.
        let v3 = try CLITests.run(["develop", a, "-o", dir.path("v3.png"), "--decoder-version", "3"])
        #expect(v3.status == 0, "\(v3.err)")
        let unknown = try CLITests.run(["develop", a, "-o", dir.path("v9.png"), "--decoder-version", "9"])
        #expect(unknown.status != 0 && unknown.err.contains("decoderVersion 9"), "\(unknown.err)")
        // Every RAW option of the table is a flag, listed in the help; vibrance and saturation too.
        let look = try CLITests.run(["develop", a, "-o", dir.path("look.png"), "--vibrance", "0.4", "--saturation", "-0.2", "--draft"])
        #expect(look.status == 0, "\(look.err)")
        let help = try CLITests.run(["develop", "--help"])
        for option in RAWFilter.options { #expect(help.out.contains("--\(option.flag)"), "--\(option.flag) is not in the help") }
        let typo = try CLITests.run(["develop", a, "-o", dir.path("t.png"), "--exposre", "1"])
        #expect(typo.status != 0 && typo.err.contains("--exposure"), "\(typo.err)")
    }
}
