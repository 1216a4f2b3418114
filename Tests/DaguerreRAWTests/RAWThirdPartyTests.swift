import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreRAW
import DaguerreTestSupport
import Foundation
import Testing

/// Real DNGs from other tools develop (SPEC X6): LinearRaw
/// files too, with colour judged against LibRaw and against Adobe's reference renderer.
@Suite struct RAWThirdPartyTests {
    static func path(_ name: String) -> String { Judge.testdata.appendingPathComponent("third-party/\(name)").path }

    @Test(
        "Adobe's lossy DNG of a Canon EOS 6D (LinearRaw, MapPolynomial linearization) develops to LibRaw's colours: mean ΔE2000 < 0.5 after matching exposure"
    )
    func canonLossy() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("6d.tif")
        let raw = try RAWFilter(url: URL(fileURLWithPath: Self.path("photoprism_canon_eos_6d.dng")))
        try Context().writeTIFFRepresentation(
            of: try raw.outputImage(), to: URL(fileURLWithPath: out), format: .rgb16, colorSpace: .extendedLinearSRGB)
        let r = try Judge.python("dng_judge.py", ["compare", Self.path("photoprism_canon_eos_6d.dng"), out])
        let de = try #require(r["mean_delta_e"] as? Double, "\(r)")
        let exposure = try #require(r["exposure_ratio"] as? Double)
        print(
            "Canon 6D lossy DNG vs LibRaw: mean ΔE2000 \(de), exposure ratio \(exposure) (ours applies BaselineExposure 0.25), channel ratios \(r["channel_ratio"] ?? "")"
        )
        #expect(de < 0.5)
        #expect(exposure > 1 && exposure < 1.3)
    }

    @Test(
        "A LinearRaw develop reads and linearizes only the columns a region needs: a region renders as the same region of the whole image (OpcodeList2 included)"
    )
    func linearRawRegions() throws {
        let raw = try RAWFilter(url: URL(fileURLWithPath: Self.path("photoprism_canon_eos_6d.dng")))
        let image = try raw.outputImage()
        let region = Rect(x: 301, y: 77, width: 190, height: 60)
        let context = try LinearPixels.floatContext()
        let whole = try LinearPixels(image, context: context)
        #expect(whole.differences(try LinearPixels(image.cropped(to: region), context: context), atX: 301, y: 77) == 0)
    }

    /// Adobe's DNG SDK renders the SDK's own fuzzer seed (a flat LinearRaw frame whose
    /// ColorMatrix1 is far from identity) to sRGB (63.0, 71.0, 205.0): measured with
    /// `dng_validate -16 -tif` (DNG SDK 1.4, built by hand outside the repo), means over all
    /// pixels, 8-bit scale. LibRaw ignores the matrix and renders it grey, so Adobe is the judge.
    static let adobeFuzzerSeedSRGB = SIMD3<Double>(63.0, 71.0, 205.0)

    @Test("The DNG SDK's 3-colour LinearRaw fuzzer seed develops to Adobe's reference colour within 1/255")
    func adobeSeed() throws {
        let raw = try RAWFilter(url: URL(fileURLWithPath: Self.path("dngsdk_fuzzer_original.dng")))
        let buffer = try Context().createBuffer(try raw.outputImage(), format: .rgba8, colorSpace: .sRGB)
        var sum = SIMD3<Double>.zero
        buffer.withUnsafeBytes { p in
            for y in 0..<buffer.height {
                for x in 0..<buffer.width {
                    let q = p.baseAddress!.advanced(by: y * buffer.bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
                    sum += SIMD3(Double(q[0]), Double(q[1]), Double(q[2]))
                }
            }
        }
        let mean = sum / Double(buffer.width * buffer.height)
        print("DNG SDK fuzzer seed: ours \(mean), Adobe \(Self.adobeFuzzerSeedSRGB)")
        let d = mean - Self.adobeFuzzerSeedSRGB
        #expect(max(abs(d.x), max(abs(d.y), abs(d.z))) < 1)
    }

    @Test("A DNG stripped of its image data is refused with a typed error that names the damage")
    func stripped() throws {
        let e = try #require(throws: DaguerreError.self) { _ = try RAWFilter(url: URL(fileURLWithPath: Self.path("exiftool_t_DNG.dng"))) }
        #expect(e.message.contains("damaged"))
    }
}
