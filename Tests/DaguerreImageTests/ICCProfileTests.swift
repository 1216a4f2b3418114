import CLCMS2
import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Any ICC profile (I2): matrix/TRC profiles become analytic spaces; LUT-based ones go through
/// lcms2 transforms.
@Suite struct ICCProfileTests {
    /// A LUT-based (A2B0/B2A0, Lab PCS) profile equivalent to sRGB, built with lcms2's pipeline
    /// API: 33³ CLUTs sampled from lcms2's own sRGB ↔ Lab transforms.
    static func lutBasedSRGBProfile() throws -> [UInt8] {
        let srgb = cmsCreate_sRGBProfile()
        let lab = cmsCreateLab4Profile(nil)
        defer {
            cmsCloseProfile(srgb)
            cmsCloseProfile(lab)
        }
        let toLab = cmsCreateTransform(srgb, DAG_TYPE_RGB_16, lab, DAG_TYPE_Lab_16, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0)
        let fromLab = cmsCreateTransform(lab, DAG_TYPE_Lab_16, srgb, DAG_TYPE_RGB_16, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0)
        defer {
            cmsDeleteTransform(toLab)
            cmsDeleteTransform(fromLab)
        }
        let sampler: cmsSAMPLER16 = { input, output, cargo in
            cmsDoTransform(cargo, input, output, 1)
            return 1
        }
        func pipeline(_ t: cmsHTRANSFORM?) -> OpaquePointer? {
            let p = cmsPipelineAlloc(nil, 3, 3)
            let clut = cmsStageAllocCLut16bit(nil, 33, 3, 3, nil)
            _ = cmsStageSampleCLut16bit(clut, sampler, UnsafeMutableRawPointer(t), 0)
            // lutAtoBType needs "A curves, CLUT, B curves": identity curves around the CLUT.
            _ = cmsPipelineInsertStage(p, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
            _ = cmsPipelineInsertStage(p, cmsAT_END, clut)
            _ = cmsPipelineInsertStage(p, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
            return p
        }
        let a2b = pipeline(toLab)
        let b2a = pipeline(fromLab)
        defer {
            cmsPipelineFree(a2b)
            cmsPipelineFree(b2a)
        }
        let h = try #require(cmsCreateProfilePlaceholder(nil))
        defer { cmsCloseProfile(h) }
        cmsSetProfileVersion(h, 4.3)
        cmsSetDeviceClass(h, cmsSigDisplayClass)
        cmsSetColorSpace(h, cmsSigRgbData)
        cmsSetPCS(h, cmsSigLabData)
        _ = cmsWriteTag(h, cmsSigAToB0Tag, UnsafeRawPointer(a2b))
        _ = cmsWriteTag(h, cmsSigBToA0Tag, UnsafeRawPointer(b2a))
        var white = cmsD50_XYZ().pointee
        _ = cmsWriteTag(h, cmsSigMediaWhitePointTag, &white)
        let mlu = cmsMLUalloc(nil, 1)
        _ = cmsMLUsetASCII(mlu, "en", "US", "LUT sRGB (test)")
        _ = cmsWriteTag(h, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        cmsMLUfree(mlu)
        var size: cmsUInt32Number = 0
        _ = cmsSaveProfileToMem(h, nil, &size)
        var out = [UInt8](repeating: 0, count: Int(size))
        _ = out.withUnsafeMutableBytes { cmsSaveProfileToMem(h, $0.baseAddress, &size) }
        return out
    }

    @Test func lutBasedProfileIsReadThroughLCMS() throws {
        let data = try Self.lutBasedSRGBProfile()
        let space = try ICCProfile.colorSpace(from: data)
        guard case .icc = space.model else {
            Issue.record("expected a LUT-based (lcms2) space, got \(space.model)")
            return
        }
        // Kodak pixels declared in the LUT-based sRGB profile render to sRGB almost unchanged.
        let original = try ImageReader.readAll(path: Kodak.url(12).path)
        let asLUT = Image(buffer: original, colorSpace: space)
        let out = try Context().createBuffer(asLUT, format: .rgb8, colorSpace: .sRGB)
        let a = tight(original).bytes
        let b = tight(out).bytes
        var maxDiff = 0
        var sum = 0
        for (x, y) in zip(a, b) {
            let d = abs(Int(x) - Int(y))
            maxDiff = max(maxDiff, d)
            sum += d
        }
        let mean = Double(sum) / Double(a.count)
        #expect(mean < 0.6 && maxDiff <= 4, "mean \(mean), max \(maxDiff) codes")
    }

    /// Rendering into a LUT-based profile agrees with lcms2's own sRGB → profile transform.
    @Test func renderingIntoALUTBasedProfile() throws {
        let data = try Self.lutBasedSRGBProfile()
        let space = try ICCProfile.colorSpace(from: data)
        let original = try ImageReader.readAll(path: Kodak.url(12).path)
        let out = try Context().createBuffer(Image(buffer: original, colorSpace: .sRGB), format: .rgb8, colorSpace: space)
        // The judge: lcms2 directly, 8-bit sRGB → the LUT profile.
        let src = tight(original).bytes
        var ref = [UInt8](repeating: 0, count: src.count)
        let hs = cmsCreate_sRGBProfile()
        let hd = data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        defer {
            cmsCloseProfile(hs)
            cmsCloseProfile(hd)
        }
        let t = cmsCreateTransform(hs, DAG_TYPE_RGB_8, hd, DAG_TYPE_RGB_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0)
        defer { cmsDeleteTransform(t) }
        src.withUnsafeBytes { i in
            ref.withUnsafeMutableBytes { o in cmsDoTransform(t, i.baseAddress, o.baseAddress, cmsUInt32Number(src.count / 3)) }
        }
        let b = tight(out).bytes
        var sum = 0
        var maxDiff = 0
        for (x, y) in zip(ref, b) {
            let d = abs(Int(x) - Int(y))
            sum += d
            maxDiff = max(maxDiff, d)
        }
        let mean = Double(sum) / Double(b.count)
        #expect(
            mean < 0.05 && maxDiff <= 3, "against lcms2 directly (measured: mean 0.004, max 3 codes): mean \(mean), max \(maxDiff) codes")
    }

    /// A matrix/TRC profile from elsewhere (Debian's icc-profiles-free, if installed) becomes an
    /// analytic space equal to the named one.
    @Test func thirdPartyMatrixProfileBecomesAnalytic() throws {
        let path = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let space = try ICCProfile.colorSpace(from: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let m = try #require(space.rgbToXYZ)
        let ref = try #require(ColorSpace.adobeRGB1998.rgbToXYZ)
        #expect(zip(m.m, ref.m).allSatisfy { abs($0 - $1) < 2e-3 }, "\(m) vs \(ref)")
    }
}
