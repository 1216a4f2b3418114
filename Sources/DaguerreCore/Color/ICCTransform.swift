import CLCMS2

/// An lcms2 transform between an arbitrary ICC profile and linear sRGB (D65, unbounded float):
/// the fallback for profiles that are not matrix/TRC (LUT-based `A2B`/`B2A` profiles), which
/// have no analytic form (I2: "any ICC profile, through lcms2").
///
/// Integer samples go in or out; the linear side is float, where lcms2 is only moderately slow
/// (its float↔float path is the 24× slower one, TOOLCHAIN.md). Matrix/TRC profiles never come
/// here: they become analytic ``ColorSpace`` models.
///
/// ```swift
/// let toLinear = try ICCTransform.toLinearSRGB(from: profile, format: .rgb8)
/// toLinear.apply(row, into: floats, count: width)   // RGBA float, alpha left as it was
/// ```
public final class ICCTransform: @unchecked Sendable {
    // Safety: created with cmsFLAGS_NOCACHE, so cmsDoTransform keeps no per-call state and may
    // run from several threads at once; the handle is deleted only in deinit.
    private let handle: cmsHTRANSFORM
    public let format: PixelFormat

    private init(handle: cmsHTRANSFORM, format: PixelFormat) {
        self.handle = handle
        self.format = format
    }
    deinit { cmsDeleteTransform(handle) }

    /// Linear sRGB primaries, D65, gamma 1: the lcms2 side of the working space. The same
    /// profile the extended linear sRGB space embeds in files (generated once and cached).
    static func linearSRGBProfile() throws(DaguerreError) -> cmsHPROFILE {
        try open(ColorSpace.extendedLinearSRGB.iccProfileData(), name: ColorSpace.extendedLinearSRGB.name)
    }

    /// lcms2's format word for an integer RGB(A) or gray pixel format, or nil.
    static func lcmsFormat(_ f: PixelFormat) -> cmsUInt32Number? {
        switch (f.layout, f.component) {
        case (.rgb, .uint8): return DAG_TYPE_RGB_8
        case (.rgba, .uint8): return DAG_TYPE_RGBA_8
        case (.rgb, .uint16): return DAG_TYPE_RGB_16
        case (.rgba, .uint16): return DAG_TYPE_RGBA_16
        case (.l, .uint8): return DAG_TYPE_GRAY_8
        case (.l, .uint16): return DAG_TYPE_GRAY_16
        default: return nil
        }
    }

    private static func open(_ data: [UInt8], name: String) throws(DaguerreError) -> cmsHPROFILE {
        guard let h = data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .corruptData(format: "ICC profile", detail: "Little CMS could not parse '\(name)'", path: nil)
        }
        return h
    }

    /// `format` pixels encoded in `profile` → linear sRGB, as RGBA floats (alpha untouched
    /// unless the input has alpha, which is copied).
    public static func toLinearSRGB(from profile: ICCProfile, format: PixelFormat) throws(DaguerreError) -> ICCTransform {
        guard let inFormat = lcmsFormat(format) else {
            throw .unsupported(
                feature: "Colour matching \(format) pixels through the ICC profile '\(profile.descriptionText)'",
                hint: "Use 8- or 16-bit RGB(A) or gray data with LUT-based profiles.")
        }
        let src = try open(profile.data, name: profile.descriptionText)
        defer { cmsCloseProfile(src) }
        let dst = try linearSRGBProfile()
        defer { cmsCloseProfile(dst) }
        let flags = cmsFLAGS_NOCACHE | (format.hasAlpha ? cmsFLAGS_COPY_ALPHA : 0)
        guard
            let t = cmsCreateTransform(
                src, inFormat, dst, DAG_TYPE_RGBA_FLT, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(flags))
        else {
            throw .colorManagement(detail: "Little CMS could not build a transform from '\(profile.descriptionText)' for \(format) data")
        }
        return ICCTransform(handle: t, format: format)
    }

    /// Linear sRGB RGBA floats (straight alpha) → `format` pixels encoded in `profile`.
    public static func fromLinearSRGB(to profile: ICCProfile, format: PixelFormat) throws(DaguerreError) -> ICCTransform {
        guard let outFormat = lcmsFormat(format) else {
            throw .unsupported(
                feature: "Rendering \(format) pixels into the ICC profile '\(profile.descriptionText)'",
                hint: "Render 8- or 16-bit RGB(A) into LUT-based profiles.")
        }
        let src = try linearSRGBProfile()
        defer { cmsCloseProfile(src) }
        let dst = try open(profile.data, name: profile.descriptionText)
        defer { cmsCloseProfile(dst) }
        let inFormat = DAG_TYPE_RGBA_FLT
        let flags = cmsFLAGS_NOCACHE | (format.hasAlpha ? cmsFLAGS_COPY_ALPHA : 0)
        guard
            let t = cmsCreateTransform(src, inFormat, dst, outFormat, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(flags))
        else {
            throw .colorManagement(detail: "Little CMS could not build a transform into '\(profile.descriptionText)' for \(format) data")
        }
        return ICCTransform(handle: t, format: format)
    }

    /// Transforms `count` pixels.
    public func apply(_ src: UnsafeRawPointer, into dst: UnsafeMutableRawPointer, count: Int) {
        cmsDoTransform(handle, src, dst, cmsUInt32Number(count))
    }
}
