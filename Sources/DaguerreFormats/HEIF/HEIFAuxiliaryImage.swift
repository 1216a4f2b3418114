// An auxiliary image of a HEIF image item (`auxl` reference, `auxC` type): alpha, depth, Apple's
// HDR gain map and mattes.

/// An image that belongs to a HEIF file's primary image rather than being shown itself: its
/// alpha plane, a depth map, Apple's HDR gain map, a portrait or semantic matte.
///
/// ```swift
/// let file = try HEIFFile(path: "IMG_0001.HEIC")
/// for aux in file.auxiliaryImages where aux.kind == .hdrGainMap { print(aux.width, aux.height) }
/// ```
public struct HEIFAuxiliaryImage: Sendable, Equatable {
    /// What an auxiliary type URN means.
    public enum Kind: String, Sendable, Equatable {
        case alpha, depth, hdrGainMap, portraitEffectsMatte, semanticMatte, other
    }

    /// The item's ID in the file.
    public var id: UInt32
    /// The `auxC` type URN, as written (`urn:com:apple:photo:2020:aux:hdrgainmap`, ...).
    public var type: String
    public var width: Int
    public var height: Int
    /// Bits per luma sample.
    public var bitDepth: Int

    public init(id: UInt32, type: String, width: Int, height: Int, bitDepth: Int) {
        self.id = id
        self.type = type
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
    }

    public var kind: Kind { Self.kind(of: type) }

    /// The kind a type URN names: alpha and depth as MPEG-B CICP and HEVC (ISO/IEC 23008-2
    /// table F.2: AuxId 1 is alpha, 2 is depth) name them, and Apple's photo URNs.
    public static func kind(of type: String) -> Kind {
        switch type {
        case "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", "urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:avc:2015:auxid:1":
            return .alpha
        case "urn:mpeg:mpegB:cicp:systems:auxiliary:depth", "urn:mpeg:hevc:2015:auxid:2", "urn:mpeg:avc:2015:auxid:2":
            return .depth
        case "urn:com:apple:photo:2020:aux:hdrgainmap":
            return .hdrGainMap
        case "urn:com:apple:photo:2018:aux:portraiteffectsmatte":
            return .portraitEffectsMatte
        default:
            return type.hasPrefix("urn:com:apple:photo:") && type.contains("matte") ? .semanticMatte : .other
        }
    }
}
