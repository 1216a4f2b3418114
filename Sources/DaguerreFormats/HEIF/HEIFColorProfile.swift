// The colour description of a HEIF image: its `colr` box, an ICC profile or nclx code points.
import DaguerreCore

/// What a HEIF image's `colr` property says about its colour (ISO/IEC 23008-12 6.5.5).
///
/// iPhones write an ICC profile (Display P3); other cameras write nclx code points (ISO/IEC
/// 23001-8), the same ones a movie's `colr` atom carries; a file without either is sRGB.
///
/// ```swift
/// let file = try HEIFFile(path: "IMG_0001.HEIC")
/// if case .icc(let bytes) = file.colorProfile { print(bytes.count) }
/// print(file.colorProfile.colorSpace?.name ?? "not representable")   // "Display P3"
/// ```
public enum HEIFColorProfile: Sendable, Equatable {
    /// No `colr` box: sRGB by the format's default.
    case none
    /// An ICC profile (`prof` or `rICC`).
    case icc([UInt8])
    /// nclx code points: primaries, transfer, matrix, range.
    case nclx(VideoColorProperties)

    /// The colour space the decoded RGB pixels are in: the ICC profile as Little CMS reads it;
    /// for nclx, BT.709/sRGB, P3-D65 or BT.2020 primaries with the sRGB, BT.709 or linear curve.
    /// nil when Daguerre has no model for it (PQ and HLG transfers, unknown primaries, an ICC
    /// profile Little CMS cannot parse).
    public var colorSpace: ColorSpace? {
        switch self {
        case .none:
            return .sRGB
        case .icc(let bytes):
            return try? ICCProfile.colorSpace(from: bytes)
        case .nclx(let c):
            // Unspecified (2) primaries and transfer mean the format's defaults: BT.709 and sRGB.
            let primaries = c.primaries == 2 ? 1 : c.primaries
            let transfer = c.transfer == 2 ? 13 : c.transfer
            let curve: TransferFunction
            switch transfer {
            case 8: curve = .linear
            case 13: curve = .sRGB
            case 1, 6, 14, 15: curve = .bt2020  // BT.709's curve; BT.601 and BT.2020 share it
            default: return nil  // PQ, HLG and the rest have no model here
            }
            switch (primaries, transfer) {
            case (1, 13): return .sRGB
            case (12, 13): return .displayP3
            case (12, 8): return .linearDisplayP3
            case (9, 1), (9, 14), (9, 15): return .itur2020
            case (9, 8): return .linearITUR2020
            default: break
            }
            let named: [UInt16: Primaries] = [1: .srgb, 12: .displayP3, 9: .bt2020]
            guard let p = named[primaries] else { return nil }
            return ColorSpace(name: "nclx primaries \(primaries), transfer \(transfer)", primaries: p, transfer: curve)
        }
    }

    /// A short description for people: "ICC: Display P3", "nclx: primaries 1, transfer 13, ...".
    public var summary: String {
        switch self {
        case .none: return "none (sRGB by default)"
        case .icc(let bytes):
            return "ICC: " + ((try? ICCProfile.colorSpace(from: bytes).name) ?? "unreadable profile (\(bytes.count) bytes)")
        case .nclx(let c): return "nclx: \(c)"
        }
    }
}
