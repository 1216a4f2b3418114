import CLCMS2
import Foundation
import Synchronization

/// An ICC profile, parsed, generated and (for non-matrix profiles) applied by Little CMS 2.
///
/// lcms2 is the well-kept library for ICC; Daguerre uses it to *read* profiles into analytic
/// ``ColorSpace`` models, to *write* the profiles its outputs embed (W6, I7), and as the
/// fallback transform for LUT-based profiles. Hot loops never call lcms2's float path.
///
/// ```swift
/// let space = try ICCProfile.colorSpace(from: data)   // matrix/TRC profiles become analytic
/// let bytes = try ColorSpace.displayP3.iccProfileData()
/// ```
public struct ICCProfile: Sendable, Hashable {
    public let data: [UInt8]
    public let descriptionText: String

    public init(data: [UInt8], description: String) {
        self.data = data
        self.descriptionText = description
    }

    /// Parses `data` into a colour space: RGB matrix/TRC and gray profiles become analytic
    /// models; anything else keeps the profile for lcms2.
    public static func colorSpace(from data: [UInt8]) throws(DaguerreError) -> ColorSpace {
        guard data.count >= 128 else {
            throw .corruptData(format: "ICC profile", detail: "only \(data.count) bytes, a header alone is 128", path: nil)
        }
        guard let h = data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .corruptData(format: "ICC profile", detail: "Little CMS could not parse it", path: nil)
        }
        defer { cmsCloseProfile(h) }
        let desc = info(h)
        let profile = ICCProfile(data: data, description: desc)
        let space = cmsGetColorSpace(h)
        if space == cmsSigRgbData, cmsIsMatrixShaper(h) != 0,
            let r = xyzTag(h, cmsSigRedColorantTag), let g = xyzTag(h, cmsSigGreenColorantTag), let b = xyzTag(h, cmsSigBlueColorantTag),
            let tr = cmsReadTag(h, cmsSigRedTRCTag)
        {
            // Colorants are D50-adapted (PCS); undo the profile's adaptation to get D65-referred XYZ.
            let d50 = Matrix3([r.x, g.x, b.x, r.y, g.y, b.y, r.z, g.z, b.z])
            let undo = chad(h)?.inverse ?? Matrix3.bradfordAdaptation(from: Primaries.xyz(Primaries.d50), to: Primaries.xyz(Primaries.d65))
            let transfer = transferFunction(OpaquePointer(tr))
            // Recognise the profiles Daguerre writes, so names survive a round trip.
            let model = ColorSpace.Model.rgb(rgbToXYZ: undo * d50, transfer: transfer)
            for named in ColorSpace.named where named.name == desc {
                if let m = named.rgbToXYZ, zip(m.m, (undo * d50).m).allSatisfy({ abs($0 - $1) < 2e-3 }) {
                    return ColorSpace(name: named.name, model: named.model, sourceProfile: profile)
                }
            }
            return ColorSpace(name: desc.isEmpty ? "ICC RGB" : desc, model: model, sourceProfile: profile)
        }
        if space == cmsSigGrayData, let k = cmsReadTag(h, cmsSigGrayTRCTag) {
            return ColorSpace(
                name: desc.isEmpty ? "ICC Gray" : desc, model: .gray(transfer: transferFunction(OpaquePointer(k))), sourceProfile: profile)
        }
        return ColorSpace(name: desc.isEmpty ? "ICC profile" : desc, model: .icc(profile), sourceProfile: profile)
    }

    private static func info(_ h: cmsHPROFILE) -> String {
        var buf = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(h, cmsInfoDescription, "en", "US", &buf, 256)
        return n > 0 ? String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
    private static func xyzTag(_ h: cmsHPROFILE, _ sig: cmsTagSignature) -> SIMD3<Double>? {
        guard let p = cmsReadTag(h, sig) else { return nil }
        let v = p.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
        return SIMD3(v.X, v.Y, v.Z)
    }
    private static func chad(_ h: cmsHPROFILE) -> Matrix3? {
        guard let p = cmsReadTag(h, cmsSigChromaticAdaptationTag) else { return nil }
        let d = p.assumingMemoryBound(to: Double.self)
        return Matrix3((0..<9).map { d[$0] })
    }
    /// Turns an lcms2 tone curve into a transfer function: known parametric forms stay analytic,
    /// anything else is sampled (4096 points each way).
    private static func transferFunction(_ curve: OpaquePointer) -> TransferFunction {
        let type = cmsGetToneCurveParametricType(curve)
        if let p = cmsGetToneCurveParams(curve) {
            switch type {
            case 1: return abs(p[0] - 1) < 1e-6 ? .linear : .gamma(p[0])
            case 3, 4:  // type 3 is ICC's (a X + b)^g / cX; lcms2 reports it as 4 with e = f = 0
                let t = TransferFunction.parametric(g: p[0], a: p[1], b: p[2], c: p[3], d: p[4])
                let srgb = TransferFunction.sRGB.parametricParameters!
                if zip([p[0], p[1], p[2], p[3], p[4]], srgb).allSatisfy({ abs($0 - $1) < 1e-4 }) { return .sRGB }
                return t
            default: break
            }
        }
        if cmsIsToneCurveLinear(curve) != 0 { return .linear }
        let n = 4096
        let fwd = (0...n).map { cmsEvalToneCurveFloat(curve, Float($0) / Float(n)) }
        var inv = [Float](repeating: 0, count: n + 1)
        if let r = cmsReverseToneCurve(curve) {
            for i in 0...n { inv[i] = cmsEvalToneCurveFloat(r, Float(i) / Float(n)) }
            cmsFreeToneCurve(r)
        }
        return .table(TransferTable(forward: fwd, inverse: inv))
    }
}

extension ColorSpace {
    /// An ICC profile describing this space, generated by lcms2 (v4, D50 PCS, Bradford-adapted
    /// colorants, parametric or sampled curves) or the profile the space was read from.
    public func iccProfileData() throws(DaguerreError) -> [UInt8] {
        if let p = sourceProfile { return p.data }
        if let cached = ICCProfileCache.shared.get(name) { return cached }
        let made = try makeProfile()
        ICCProfileCache.shared.put(name, made)
        return made
    }

    private func makeProfile() throws(DaguerreError) -> [UInt8] {
        let h: cmsHPROFILE?
        switch model {
        case .rgb(let m, let t):
            // Recover xy primaries from the matrix columns (white is D65 for every space built here).
            func xy(_ c: Int) -> cmsCIExyY {
                let X = m[0, c]
                let Y = m[1, c]
                let Z = m[2, c]
                let s = X + Y + Z
                return cmsCIExyY(x: X / s, y: Y / s, Y: 1)
            }
            var white = cmsCIExyY(x: Primaries.d65.x, y: Primaries.d65.y, Y: 1)
            var prim = cmsCIExyYTRIPLE(Red: xy(0), Green: xy(1), Blue: xy(2))
            guard let curve = Self.toneCurve(t) else { throw .colorManagement(detail: "could not build the tone curve of \(name)") }
            defer { cmsFreeToneCurve(curve) }
            var curves: [OpaquePointer?] = [curve, curve, curve]
            h = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &prim, $0.baseAddress) }
        case .gray(let t):
            var white = cmsCIExyY(x: Primaries.d65.x, y: Primaries.d65.y, Y: 1)
            guard let curve = Self.toneCurve(t) else { throw .colorManagement(detail: "could not build the tone curve of \(name)") }
            defer { cmsFreeToneCurve(curve) }
            h = cmsCreateGrayProfile(&white, curve)
        case .icc(let p):
            return p.data
        }
        guard let h else { throw .colorManagement(detail: "Little CMS could not create a profile for \(name)") }
        defer { cmsCloseProfile(h) }
        for (sig, text) in [(cmsSigProfileDescriptionTag, name), (cmsSigCopyrightTag, "No copyright, use freely (written by Daguerre)")] {
            guard let mlu = cmsMLUalloc(nil, 1) else { continue }
            _ = cmsMLUsetASCII(mlu, "en", "US", text)
            _ = cmsWriteTag(h, sig, UnsafeRawPointer(mlu))
            cmsMLUfree(mlu)
        }
        cmsSetDeviceClass(h, cmsSigDisplayClass)
        // Little CMS stamps a new profile with the time it was made; a fixed date instead makes
        // one colour space give the same bytes in every run (an edit resumed in another process
        // is then identical), and the profile ID (its MD5) is computed over that.
        var dated = try Self.serialize(h, name: name)
        let fixedDate: [UInt16] = [2016, 1, 1, 0, 0, 0]
        for (i, v) in fixedDate.enumerated() {
            dated[24 + 2 * i] = UInt8(v >> 8)
            dated[25 + 2 * i] = UInt8(v & 0xFF)
        }
        guard let reopened = dated.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .colorManagement(detail: "Little CMS could not reread the profile of \(name)")
        }
        defer { cmsCloseProfile(reopened) }
        _ = cmsMD5computeID(reopened)
        return try Self.serialize(reopened, name: name)
    }

    private static func serialize(_ h: cmsHPROFILE, name: String) throws(DaguerreError) -> [UInt8] {
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(h, nil, &size) != 0, size > 0 else {
            throw .colorManagement(detail: "Little CMS could not serialise \(name)")
        }
        var out = [UInt8](repeating: 0, count: Int(size))
        guard out.withUnsafeMutableBytes({ cmsSaveProfileToMem(h, $0.baseAddress, &size) }) != 0 else {
            throw .colorManagement(detail: "Little CMS could not serialise \(name)")
        }
        return out
    }

    static func toneCurve(_ t: TransferFunction) -> OpaquePointer? {
        if let p = t.parametricParameters {
            if case .gamma(let g) = t { return cmsBuildGamma(nil, g) }
            if case .linear = t { return cmsBuildGamma(nil, 1) }
            return p.withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }
        }
        if case .table(let tab) = t {
            return tab.forward.withUnsafeBufferPointer { cmsBuildTabulatedToneCurveFloat(nil, cmsUInt32Number($0.count), $0.baseAddress) }
        }
        return nil
    }
}

/// Generated profiles, by space name: generating one costs lcms2 work and an MD5.
final class ICCProfileCache: Sendable {
    static let shared = ICCProfileCache()
    private let profiles = Mutex<[String: [UInt8]]>([:])
    func get(_ k: String) -> [UInt8]? { profiles.withLock { $0[k] } }
    func put(_ k: String, _ v: [UInt8]) { profiles.withLock { $0[k] = v } }
}
