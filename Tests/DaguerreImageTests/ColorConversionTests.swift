import CLCMS2
import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Colour conversions between sRGB, Display P3, Adobe RGB and BT.2020 through the engine agree
/// with colour-science and with lcms2 to ΔE2000 < 0.05 on a 17×17×17 grid (I2, I8, W1).
@Suite struct ColorConversionTests {
    static let spaces: [ColorSpace] = [.sRGB, .displayP3, .adobeRGB1998, .itur2020]
    static var pairs: [(ColorSpace, ColorSpace)] { spaces.flatMap { a in spaces.filter { $0 != a }.map { (a, $0) } } }

    /// The 17³ grid (r slowest, b fastest) as an RGBAf buffer, one row.
    static func grid(_ n: Int = 17) throws -> PixelBuffer {
        var b = try PixelBuffer(width: n * n * n, height: 1, format: .rgbaf)
        b.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: SIMD4<Float>.self)
            var i = 0
            for r in 0..<n {
                for g in 0..<n {
                    for bl in 0..<n {
                        p[i] = SIMD4(Float(r) / Float(n - 1), Float(g) / Float(n - 1), Float(bl) / Float(n - 1), 1)
                        i += 1
                    }
                }
            }
        }
        return b
    }

    /// lcms2's own float transform between the profiles Daguerre generates for the two spaces.
    static func lcms(_ input: [Float], from a: ColorSpace, to b: ColorSpace) throws -> [Float] {
        let pa = try a.iccProfileData()
        let pb = try b.iccProfileData()
        let ha = pa.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        let hb = pb.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        defer {
            cmsCloseProfile(ha)
            cmsCloseProfile(hb)
        }
        let t = cmsCreateTransform(
            ha, DAG_TYPE_RGB_FLT, hb, DAG_TYPE_RGB_FLT, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
            cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(t) }
        var out = [Float](repeating: 0, count: input.count)
        input.withUnsafeBytes { i in
            out.withUnsafeMutableBytes { o in cmsDoTransform(t, i.baseAddress, o.baseAddress, cmsUInt32Number(input.count / 3)) }
        }
        return out
    }

    @Test(arguments: pairs)
    func agreesWithColourScienceAndLCMS(from a: ColorSpace, to b: ColorSpace) throws {
        let dir = try TemporaryDirectory()
        let grid = try Self.grid()
        let image = Image(buffer: grid, colorSpace: a)
        let out = try Contexts.float().createBuffer(image, format: .rgbaf, colorSpace: b)
        var ours: [Float] = []
        var input: [Float] = []
        for i in 0..<out.width {
            let p = pixelF(out, i, 0)
            ours += [p.x, p.y, p.z]
            let q = pixelF(grid, i, 0)
            input += [q.x, q.y, q.z]
        }
        try ours.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: dir.path("ours.f32"))) }
        try Self.lcms(input, from: a, to: b).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: dir.path("lcms.f32"))) }
        let r = try Judge.python(
            "engine_judge.py", ["color", "--src", a.name, "--dst", b.name, "--ours", dir.path("ours.f32"), "--lcms", dir.path("lcms.f32")])
        let vsCS = (r["daguerre"] as? [String: Any])?["max"] as? Double ?? 99
        let vsLCMS = r["daguerre_vs_lcms2_in_gamut_max"] as? Double ?? 99
        print(
            "measured: \(a.name) → \(b.name): max ΔE2000 \(String(format: "%.5f", vsCS)) against colour-science (\(r["in_gamut"] ?? "?") of 4913 in gamut), \(String(format: "%.5f", vsLCMS)) against lcms2 in gamut"
        )
        #expect(vsCS < 0.05, "\(a.name) → \(b.name): max ΔE2000 against colour-science \(vsCS)")
        #expect(vsLCMS < 0.05, "\(a.name) → \(b.name): max ΔE2000 against lcms2 (in gamut) \(vsLCMS)")
    }

    /// The half-float working format (the default) stays well inside visibility too.
    @Test func halfFloatWorkingFormatIsClose() throws {
        let dir = try TemporaryDirectory()
        let out = try Context().createBuffer(Image(buffer: try Self.grid(), colorSpace: .sRGB), format: .rgbaf, colorSpace: .displayP3)
        var ours: [Float] = []
        for i in 0..<out.width {
            let p = pixelF(out, i, 0)
            ours += [p.x, p.y, p.z]
        }
        try ours.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: dir.path("ours.f32"))) }
        let r = try Judge.python("engine_judge.py", ["color", "--src", "sRGB", "--dst", "Display P3", "--ours", dir.path("ours.f32")])
        let m = (r["daguerre"] as? [String: Any])?["max"] as? Double ?? 99
        print("measured: sRGB → Display P3 with the RGBAh working format: max ΔE2000 \(String(format: "%.4f", m))")
        #expect(m < 0.5, "RGBAh working format: max ΔE2000 \(m)")
    }

    /// Outputs carry the matching ICC profile: a Display P3 JPEG carries a Display P3 profile,
    /// as exiftool reads it (W6, I7).
    @Test func displayP3JPEGCarriesDisplayP3Profile() throws {
        let dir = try TemporaryDirectory()
        let url = URL(fileURLWithPath: dir.path("p3.jpg"))
        let wheel = try HueSaturationValueGradient(radius: 64, colorSpace: .displayP3).outputImage()
        try Context().writeJPEGRepresentation(of: wheel, to: url, colorSpace: .displayP3, options: [.quality(0.9)])
        let desc = try Judge.run("exiftool", ["-s3", "-ProfileDescription", url.path]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(desc == "Display P3")
        let back = try Image(contentsOf: url)
        _ = back
        let info = try ImageReader.open(path: url.path).info
        #expect(info.colorSpace.name == "Display P3")
        #expect(info.colorSpace.rgbToXYZ.map { zip($0.m, ColorSpace.displayP3.rgbToXYZ!.m).allSatisfy { abs($0 - $1) < 1e-3 } } == true)
    }
}
