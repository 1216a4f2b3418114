// A HEIF depth map as libheif's depth API describes it: size and representation (23008-2 F.3).

/// A depth map attached to a HEIF image, with what its samples mean when the file says
/// (the depth representation SEI of ISO/IEC 23008-2 annex F, which libheif reads).
///
/// ```swift
/// let file = try HEIFFile(path: "portrait.heic")
/// if let depth = file.depthImages.first { print(depth.width, depth.representation ?? "-") }
/// ```
public struct HEIFDepthImage: Sendable, Equatable {
    /// How depth samples map to distance.
    public enum Representation: String, Sendable, Equatable {
        case uniformInverseZ, uniformDisparity, uniformZ, nonuniformDisparity
    }

    public var id: UInt32
    public var width: Int
    public var height: Int
    public var bitDepth: Int
    public var representation: Representation?
    public var zNear: Double?
    public var zFar: Double?
    public var dMin: Double?
    public var dMax: Double?

    public init(
        id: UInt32, width: Int, height: Int, bitDepth: Int, representation: Representation? = nil,
        zNear: Double? = nil, zFar: Double? = nil, dMin: Double? = nil, dMax: Double? = nil
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.representation = representation
        self.zNear = zNear
        self.zFar = zFar
        self.dMin = dMin
        self.dMax = dMax
    }
}
