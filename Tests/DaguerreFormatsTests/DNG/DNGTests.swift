import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing
@testable import DaguerreFormats

/// DNG writer and reader, judged by LibRaw (rawpy, dcraw_emu), dcraw, darktable, RawTherapee
/// and exiftool (SPEC R1, R5, R6).
@Suite struct DNGTests {
    static func sampleDNG(_ pattern: BayerPattern, preview: Bool) throws -> DNGImage {
        var dng = DNGImage(raw: try SyntheticRaw.mosaic(pattern), uniqueCameraModel: "Daguerre Test Camera")
        dng.color.colorMatrix1 = [0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.05, 0.15, 0.6]
        dng.color.calibrationIlluminant1 = .d65
        dng.color.asShotNeutral = [0.5, 1, 0.7]
        dng.color.noiseProfile = [(2.0e-5, 1.0e-7)]
        var m = PhotoMetadata(make: "Daguerre", model: "Test Camera", software: "Daguerre tests")
        m.exposureTime = 1.0 / 60; m.fNumber = 1.8; m.iso = 100; m.focalLength = 4.0; m.focalLengthIn35mmFilm = 28
        m.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000); m.timeZoneOffset = 3600
        dng.metadata = m
        if preview {
            var p = try PixelBuffer(width: 300, height: 200, format: .rgb8, colorSpace: .sRGB, alpha: .straight)
            p.withUnsafeMutableBytes { b in for i in 0..<b.count { b[i] = UInt8(truncatingIfNeeded: i &* 7) } }
            dng.preview = p
        }
        return dng
    }

    @Test("DNG round trip: our reader and rawpy give back the exact Bayer samples, for every CFA order",
          arguments: BayerPattern.allCases, [true, false])
    func roundTrip(pattern: BayerPattern, preview: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("\(pattern.fourCC)-\(preview ? "preview" : "nopreview").dng")
        let dng = try Self.sampleDNG(pattern, preview: preview)
        try DNGWriter.write(dng, to: path)
        Samples.keep(path)

        let back = try DNGReader.read(path: path)
        #expect(back.raw.samples == dng.raw.samples)
        #expect(back.raw.pattern == pattern)
        #expect(back.raw.blackLevel == dng.raw.blackLevel)
        #expect(back.raw.whiteLevel == dng.raw.whiteLevel)
        #expect(back.color.asShotNeutral == [0.5, 1, 0.7])
        #expect(back.metadata.iso == 100)
        #expect((back.preview != nil) == preview)

        let out = dir.path("rawpy.u16")
        let info = try Judge.python("dng_judge.py", ["raw", path, out])
        #expect(info["width"] as? Int == dng.raw.width)
        #expect(info["height"] as? Int == dng.raw.height)
        let judged = try Data(contentsOf: URL(fileURLWithPath: out)).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(judged == dng.raw.samples, "LibRaw's raw_image differs from the samples written")
        #expect(info["white_level"] as? Int == dng.raw.whiteLevel)

        try Self.expectRenderedByPeers(path, in: dir)
        let validation = try Judge.run("exiftool", ["-validate", "-warning", "-a", path])
        #expect(validation.trimmingCharacters(in: .whitespacesAndNewlines) == "Validate                        : OK", "\(validation)")
    }

    /// dcraw, dcraw_emu (LibRaw), darktable-cli and rawtherapee-cli each develop the file into an
    /// image of about the mosaic's size.
    static func expectRenderedByPeers(_ dng: String, in dir: TemporaryDirectory) throws {
        let work = dir.path("peers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let input = work + "/in.dng"
        try FileManager.default.copyItem(atPath: dng, toPath: input)
        var outputs: [(String, String)] = []
        try Judge.run("dcraw", ["-T", input]); outputs.append(("dcraw", work + "/in.tiff"))
        try Judge.run("dcraw_emu", ["-T", input]); outputs.append(("dcraw_emu", work + "/in.dng.tiff"))
        try Judge.run("darktable-cli", [input, work + "/dt.jpg", "--core", "--configdir", work + "/dtconf"])
        outputs.append(("darktable-cli", work + "/dt.jpg"))
        try Judge.run("rawtherapee-cli", ["-o", work + "/rt.jpg", "-Y", "-c", input]); outputs.append(("rawtherapee-cli", work + "/rt.jpg"))
        let raw = try DNGReader.read(path: dng).raw
        for (tool, file) in outputs {
            let info = try ImageReader.open(path: file).info
            #expect(abs(info.width - raw.width) <= 20 && abs(info.height - raw.height) <= 20,
                    "\(tool) rendered \(info.width)×\(info.height) from a \(raw.width)×\(raw.height) mosaic")
        }
    }

    @Test("DNG colour metadata: LibRaw develops a synthetic chart to its truth within mean ΔE2000 1.0")
    func colourMetadata() throws {
        let dir = try TemporaryDirectory()
        let chart = try SyntheticRaw.chart()
        let path = dir.path("chart.dng")
        try DNGWriter.write(chart.dng, to: path)
        Samples.keep(path)
        let spec = dir.path("chart.json")
        try JSONSerialization.data(withJSONObject: chart.spec).write(to: URL(fileURLWithPath: spec))
        let result = try Judge.python("dng_judge.py", ["develop", path, spec])
        let mean = try #require(result["mean"] as? Double)
        print("DNG chart through LibRaw: mean ΔE2000 \(mean), max \(result["max"] ?? "?")")
        #expect(mean <= 1.0, "mean ΔE2000 \(mean), max \(result["max"] ?? "?")")
    }
}

/// Keeps files that tests wrote and judged, when DAGUERRE_SAMPLES_DIR is set.
enum Samples {
    static func keep(_ path: String) {
        guard let dir = ProcessInfo.processInfo.environment["DAGUERRE_SAMPLES_DIR"], !dir.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let dest = URL(fileURLWithPath: dir).appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
        try? FileManager.default.removeItem(atPath: dest)
        try? FileManager.default.copyItem(atPath: path, toPath: dest)
    }
}
