import Foundation

/// A colour space: named RGB spaces with analytic maths, or any ICC profile (W1, I2, I8).
///
/// RGB spaces (including every matrix/TRC ICC profile, which is most of them) are described by
/// a linear-RGB → XYZ (D65) matrix and a transfer function, so the engine converts them with a
/// 3×3 matrix and lookup tables: lcms2's float path is far too slow for hot loops
/// (TOOLCHAIN.md). Other ICC profiles (LUT-based, CMYK) keep their lcms2 profile and are
/// converted through lcms2.
///
/// ```swift
/// let p3 = ColorSpace.displayP3
/// p3.convert(SIMD3(1, 0, 0), to: .sRGB)      // (1.093, -0.227, -0.150): P3 red is outside sRGB
/// let icc = try p3.iccProfileData()           // what a Display P3 JPEG carries
/// ```
public struct ColorSpace: Sendable, Hashable, CustomStringConvertible {
    public enum Model: Sendable, Hashable {
        /// Linear RGB → XYZ relative to D65, and the transfer curve.
        case rgb(rgbToXYZ: Matrix3, transfer: TransferFunction)
        /// Luminance only, with its transfer curve (gray JPEG/PNG files, gray ICC profiles).
        case gray(transfer: TransferFunction)
        /// Anything else: converted by lcms2 through the profile itself.
        case icc(ICCProfile)
    }

    public let name: String
    public let model: Model
    /// The ICC profile this space was read from, if any (kept so outputs can embed it unchanged).
    public let sourceProfile: ICCProfile?

    public init(name: String, model: Model, sourceProfile: ICCProfile? = nil) {
        self.name = name
        self.model = model
        self.sourceProfile = sourceProfile
    }
    public init(name: String, primaries: Primaries, transfer: TransferFunction) {
        let m = primaries.rgbToXYZ
        // Express in D65 whatever white the primaries name, by Bradford adaptation.
        let adapted =
            primaries.white == Primaries.d65
            ? m
            : Matrix3.bradfordAdaptation(from: Primaries.xyz(primaries.white), to: Primaries.xyz(Primaries.d65)) * m
        self.init(name: name, model: .rgb(rgbToXYZ: adapted, transfer: transfer))
    }

    // MARK: Named spaces (W1, I8)
    public static let sRGB = ColorSpace(name: "sRGB", primaries: .srgb, transfer: .sRGB)
    /// sRGB primaries and curve, values outside [0, 1] allowed.
    public static let extendedSRGB = ColorSpace(name: "Extended sRGB", primaries: .srgb, transfer: .sRGB)
    /// Linear light, sRGB primaries, unbounded: the default working space.
    public static let extendedLinearSRGB = ColorSpace(name: "Extended Linear sRGB", primaries: .srgb, transfer: .linear)
    public static let displayP3 = ColorSpace(name: "Display P3", primaries: .displayP3, transfer: .sRGB)
    public static let linearDisplayP3 = ColorSpace(name: "Linear Display P3", primaries: .displayP3, transfer: .linear)
    public static let adobeRGB1998 = ColorSpace(name: "Adobe RGB (1998)", primaries: .adobeRGB, transfer: .adobeRGB)
    public static let itur2020 = ColorSpace(name: "ITU-R BT.2020", primaries: .bt2020, transfer: .bt2020)
    public static let linearITUR2020 = ColorSpace(name: "Linear ITU-R BT.2020", primaries: .bt2020, transfer: .linear)
    public static let genericGray = ColorSpace(name: "Gray (sRGB curve)", model: .gray(transfer: .sRGB))
    public static let linearGray = ColorSpace(name: "Linear Gray", model: .gray(transfer: .linear))

    /// Every named space, for look-up by name (CLI `--colorspace`).
    public static let named: [ColorSpace] = [
        .sRGB, .extendedSRGB, .extendedLinearSRGB, .displayP3, .linearDisplayP3,
        .adobeRGB1998, .itur2020, .linearITUR2020,
    ]

    /// Looks up a named space leniently: "displayP3", "Display P3", "p3", "srgb", "adobeRGB"...
    public init?(named raw: String) {
        let key = raw.lowercased().filter { $0.isLetter || $0.isNumber }
        let aliases: [String: ColorSpace] = [
            "srgb": .sRGB, "extendedsrgb": .extendedSRGB, "extendedlinearsrgb": .extendedLinearSRGB,
            "linearsrgb": .extendedLinearSRGB, "displayp3": .displayP3, "p3": .displayP3,
            "lineardisplayp3": .linearDisplayP3, "linearp3": .linearDisplayP3,
            "adobergb": .adobeRGB1998, "adobergb1998": .adobeRGB1998, "itur2020": .itur2020,
            "bt2020": .itur2020, "rec2020": .itur2020, "linearitur2020": .linearITUR2020, "linearbt2020": .linearITUR2020,
        ]
        guard let s = aliases[key] else { return nil }
        self = s
    }

    public var description: String { name }

    /// Linear RGB → XYZ (D65) for RGB spaces.
    public var rgbToXYZ: Matrix3? { if case .rgb(let m, _) = model { return m } else { return nil } }
    public var transfer: TransferFunction? {
        switch model {
        case .rgb(_, let t): return t
        case .gray(let t): return t
        case .icc: return nil
        }
    }
    public var isRGB: Bool { if case .rgb = model { return true } else { return false } }
    public var isLinear: Bool { transfer?.isLinear ?? false }

    /// The matrix taking linear values in `self` to linear values in `other` (both RGB).
    public func linearMatrix(to other: ColorSpace) -> Matrix3? {
        guard let a = rgbToXYZ, let b = other.rgbToXYZ?.inverse else { return nil }
        return b * a
    }

    /// Converts one encoded colour to `other` (double precision; the reference for the engine).
    public func convert(_ rgb: SIMD3<Double>, to other: ColorSpace) -> SIMD3<Double>? {
        guard let m = linearMatrix(to: other), let t0 = transfer, let t1 = other.transfer else { return nil }
        let lin = SIMD3(t0.decode(rgb.x), t0.decode(rgb.y), t0.decode(rgb.z))
        let o = m * lin
        return SIMD3(t1.encode(o.x), t1.encode(o.y), t1.encode(o.z))
    }

    public static func == (a: ColorSpace, b: ColorSpace) -> Bool { a.name == b.name && a.model == b.model }
    public func hash(into h: inout Hasher) { h.combine(name) }
}
