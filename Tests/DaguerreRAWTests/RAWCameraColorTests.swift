import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreRAW

/// Colour and white balance on real camera files (SPEC X3, X6): each file LibRaw develops,
/// developed by RAWFilter at its defaults and by LibRaw (rawpy: the camera's white balance, or
/// its daylight fallback), agrees in colour once matched in exposure; fallbacks are reported.
@Suite struct RAWCameraColorTests {
    static func path(_ name: String) -> String { Judge.testdata.appendingPathComponent("third-party/\(name)").path }

    /// The real camera files LibRaw develops (the DNG SDK's fuzzer seed is no camera's, and
    /// LibRaw ignores its matrix: Adobe judges it in ``RAWThirdPartyTests``).
    static let cameraFiles = [
        "gil_canon_eos_d30.crw", "tinydng_canon_550d_magiclantern_colorchart.dng", "photoprism_canon_eos_6d.dng",
    ]

    @Test(
        "Every real camera file develops at defaults within mean ΔE2000 3 of LibRaw's develop (camera or daylight white, sRGB, matched in exposure), with no cast: mean a*, b* offsets within 2"
    )
    func againstLibRaw() throws {
        let dir = try TemporaryDirectory()
        var rows = ["| file | read by | matrix | white | LibRaw's white | exposure ratio | mean ΔE2000 | mean Δa* | mean Δb* |"]
        rows.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        var failures: [String] = []
        for name in Self.cameraFiles {
            let raw = try RAWFilter(url: URL(fileURLWithPath: Self.path(name)))
            let out = dir.path("\(name).tif")
            try Context().writeTIFFRepresentation(
                of: try raw.outputImage(), to: URL(fileURLWithPath: out), format: .rgb16, colorSpace: .extendedLinearSRGB)
            let r = try Judge.python("camera_colour_judge.py", [Self.path(name), out])
            let de = try #require(r["mean_delta_e"] as? Double, "\(r)")
            let da = try #require(r["mean_da"] as? Double)
            let db = try #require(r["mean_db"] as? Double)
            let ratio = try #require(r["exposure_ratio"] as? Double)
            let p = raw.provenance
            rows.append(
                String(
                    format: "| %@ | %@ | %@ | %@ | %@ | %.3f | %.2f | %+.2f | %+.2f |", name, p.reader.rawValue, p.matrix.rawValue,
                    p.white.rawValue, (r["white"] as? String) ?? "?", ratio, de, da, db))
            if de > 3 || abs(da) > 2 || abs(db) > 2 { failures.append(name) }
        }
        print(rows.joined(separator: "\n"))
        #expect(failures.isEmpty, "over the bounds: \(failures)")
    }

    @Test(
        "A CRW whose as-shot red multiplier LibRaw marks missing (−1) develops with the camera's daylight multipliers and LibRaw's matrix, and says so"
    )
    func missingAsShot() throws {
        let raw = try RAWFilter(url: URL(fileURLWithPath: Self.path("gil_canon_eos_d30.crw")))
        #expect(raw.provenance == RAWProvenance(reader: .libRaw, matrix: .cameraTable, white: .daylight))
        #expect(raw.provenance.hasFallback && raw.provenance.description.contains("daylight"))
        let dng = try raw.dng
        #expect(dng.color.asShotNeutral == nil)
        // LibRaw's daylight multipliers for the D30 (pre_mul 1.924, 0.915, 0.967), as a neutral.
        let daylight = try #require(dng.color.daylightNeutral)
        #expect(abs(daylight[0] - 0.915_231 / 1.924_172) < 1e-4 && abs(daylight[2] - 0.915_231 / 0.967_089) < 1e-4, "\(daylight)")
        // Asked for, the white comes from the image instead.
        var guessed = raw
        try guessed.setNeutralFromImage()
        #expect(guessed.neutralTemperature != raw.neutralTemperature)
        #expect(guessed.provenance.white == .image && guessed.provenance.description.contains("guessed from the image"))
    }

    @Test("A DNG with its own matrix and as-shot white reports neither as a fallback")
    func noFallback() throws {
        let raw = try RAWFilter(url: URL(fileURLWithPath: Self.path("tinydng_canon_550d_magiclantern_colorchart.dng")))
        #expect(raw.provenance == RAWProvenance(reader: .daguerre, matrix: .file, white: .asShot))
        #expect(!raw.provenance.hasFallback)
    }

    @Test(
        "LibRaw's colour facts become a calibration in LibRaw's order: cam_xyz, else the matrix rgb_cam and pre_mul imply, else raw colour; missing multipliers (−1, 0) are missing"
    )
    func libRawFallbacks() throws {
        let srgbToXYZ = Primaries.srgb.rgbToXYZ
        // No matrix, no multipliers (a camera LibRaw has no table for): raw colour, D65 white,
        // and a neutral camera response develops neutral.
        let none = LibRawReader.color(
            camMul: [0, 1, 0, 0], camXYZ: Array(repeating: 0, count: 9), preMul: [1, 1, 1, 0], rgbCam: Matrix3.identity.m)
        #expect(none.matrixSource == .none && none.asShotNeutral == nil && none.daylightNeutral == [1, 1, 1])
        let model = CameraColorModel(none)
        let toSRGB = model.cameraToWorking(white: model.asShotWhite, working: .extendedLinearSRGB)
        let grey = toSRGB * SIMD3<Double>(0.5, 0.5, 0.5)
        #expect(abs(grey.x - grey.y) < 1e-6 && abs(grey.z - grey.y) < 1e-6, "\(grey)")
        // A missing red multiplier (−1) is missing; pre_mul is the daylight neutral.
        let table = (Matrix3.diagonal(0.5, 1, 0.7) * (srgbToXYZ.inverse ?? .identity)).m
        let crw = LibRawReader.color(camMul: [-1, 1.03, 2.69, 0], camXYZ: table, preMul: [2, 1, 1.4, 0], rgbCam: Matrix3.identity.m)
        #expect(crw.matrixSource == .cameraTable && crw.colorMatrix1 == table && crw.asShotNeutral == nil)
        #expect(CameraColorModel(crw).asShotWhiteSource == .daylight)
        // No cam_xyz, but rgb_cam and pre_mul (a DNG's own matrix inside LibRaw): the XYZ →
        // camera matrix they imply, whose D65 neutral is 1 / pre_mul.
        let rgbCam = Matrix3([1.6, -0.5, -0.1, -0.2, 1.5, -0.3, 0, -0.4, 1.4])
        let implied = LibRawReader.color(
            camMul: [2.1, 1, 1.5, 0], camXYZ: Array(repeating: 0, count: 9), preMul: [2, 1, 1.4, 0], rgbCam: rgbCam.m)
        #expect(implied.matrixSource == .file && implied.asShotNeutral.map { abs($0[0] - 1 / 2.1) < 1e-9 } == true)
        let neutral = Matrix3(implied.colorMatrix1) * Primaries.xyz(SIMD2(0.3127, 0.3290))
        #expect(abs(neutral.x / neutral.y - 0.5) < 1e-3 && abs(neutral.z / neutral.y - 1 / 1.4) < 1e-3, "\(neutral)")
    }

    @Test("A GoPro GPR (a DNG compressed with VC-5) is refused by both readers with a typed error that names VC-5")
    func gpr() throws {
        let e = try #require(throws: DaguerreError.self) {
            _ = try RAWFilter(url: URL(fileURLWithPath: Self.path("gopro_hero6_black.gpr")))
        }
        guard case .unsupported = e else {
            Issue.record("not .unsupported: \(e)")
            return
        }
        #expect(e.message.contains("VC-5") && e.message.contains("gopro_hero6_black.gpr") && e.description.contains("LibRaw"), "\(e)")
    }

    @Test(
        "A DNG our reader refuses as unsupported goes to LibRaw and develops, the refusal reported; one LibRaw cannot read either gets our refusal, naming the compression"
    )
    func handOver() throws {
        let dir = try TemporaryDirectory()
        let planes = dir.path("planecolor.dng")
        let written = try Judge.python("dng_judge.py", ["handover", planes, "planecolor"])
        #expect(written["libraw_colors"] as? [[Int]] == [[0, 1], [3, 2]], "\(written)")
        #expect(throws: DaguerreError.self) { _ = try DNGReader.read(path: planes) }
        let raw = try RAWFilter(url: URL(fileURLWithPath: planes))
        #expect(raw.provenance.reader == .libRaw && raw.provenance.refusal?.contains("not supported") == true, "\(raw.provenance)")
        #expect(raw.provenance.description.contains("our DNG reader"))
        let image = try raw.outputImage()
        #expect(image.extent.width == 96 && image.extent.height == 64)
        // The same from bytes.
        let bytes = try RAWFilter(data: try Data(contentsOf: URL(fileURLWithPath: planes)), identifierHint: "planecolor.dng")
        #expect(bytes.provenance.reader == .libRaw)

        let lossy = dir.path("lossycfa.dng")
        let refused = try Judge.python("dng_judge.py", ["handover", lossy, "lossycfa"])
        #expect((refused["libraw_colors"] as? String)?.hasPrefix("error") == true, "\(refused)")
        let e = try #require(throws: DaguerreError.self) { _ = try RAWFilter(url: URL(fileURLWithPath: lossy)) }
        #expect(e.message.contains("lossy JPEG") && e.message.contains("lossycfa.dng") && e.description.contains("LibRaw"), "\(e)")
    }

    @Test("A DNG without a colour matrix or an as-shot white develops in raw colour with a D65 white, a grey staying grey, and says so")
    func noMatrix() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("nomatrix.dng")
        _ = try Judge.python("dng_judge.py", ["handover", path, "nomatrix"])
        let raw = try RAWFilter(url: URL(fileURLWithPath: path))
        #expect(raw.provenance == RAWProvenance(reader: .daguerre, matrix: .none, white: .d65), "\(raw.provenance)")
        #expect(raw.provenance.description.contains("raw colour"))
        let b = try Context().createBuffer(try raw.outputImage(), format: .rgba8, colorSpace: .sRGB)
        let centre = b.withUnsafeBytes { p in (0..<3).map { Int(p[(b.height / 2) * b.bytesPerRow + (b.width / 2) * 4 + $0]) } }
        #expect(abs(centre[0] - centre[1]) <= 1 && abs(centre[2] - centre[1]) <= 1 && centre[1] > 100, "\(centre)")
    }
}
