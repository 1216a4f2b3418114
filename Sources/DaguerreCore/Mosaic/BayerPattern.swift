// The four 2×2 Bayer orders and their names (SPEC R1: 'rgg4', 'grb4', 'bgg4', 'gbr4').

/// A 2×2 colour filter array order, named by its first row then second row.
///
/// The four-character codes are the pixel-format codes of 14-bit Bayer buffers in the seeds
/// (kCVPixelFormatType_14Bayer_RGGB = 'rgg4', ...). DNG writes the order as CFAPattern, with
/// 0 = red, 1 = green, 2 = blue.
///
/// ```swift
/// let p = BayerPattern.rggb
/// p.color(x: 1, y: 0)   // 1 (green)
/// p.fourCC               // "rgg4"
/// ```
public enum BayerPattern: String, Sendable, CaseIterable, Hashable {
    case rggb, grbg, bggr, gbrg

    /// CFAPattern bytes in row-major order over the 2×2 block.
    public var cfaPattern: [UInt8] {
        switch self {
        case .rggb: return [0, 1, 1, 2]
        case .grbg: return [1, 0, 2, 1]
        case .bggr: return [2, 1, 1, 0]
        case .gbrg: return [1, 2, 0, 1]
        }
    }

    public var fourCC: String {
        switch self {
        case .rggb: "rgg4"
        case .grbg: "grb4"
        case .bggr: "bgg4"
        case .gbrg: "gbr4"
        }
    }

    public init?(fourCC: String) {
        guard let p = Self.allCases.first(where: { $0.fourCC == fourCC }) else { return nil }
        self = p
    }

    /// The order a 2×2 CFAPattern describes, or nil if it is not a Bayer order.
    public init?(cfaPattern: [UInt8]) {
        guard let p = Self.allCases.first(where: { $0.cfaPattern == cfaPattern }) else { return nil }
        self = p
    }

    /// The colour (0 red, 1 green, 2 blue) at pixel (x, y); no allocation, for pixel loops.
    @inline(__always) public func color(x: Int, y: Int) -> Int {
        let p = (y & 1) * 2 + (x & 1)
        switch self {
        case .rggb: return p == 0 ? 0 : p == 3 ? 2 : 1
        case .bggr: return p == 0 ? 2 : p == 3 ? 0 : 1
        case .grbg: return p == 1 ? 0 : p == 2 ? 2 : 1
        case .gbrg: return p == 1 ? 2 : p == 2 ? 0 : 1
        }
    }

    /// The same mosaic seen from an origin moved by (dx, dy): `shifted(x: dx, y: dy).color(x:y:)`
    /// equals `color(x: x + dx, y: y + dy)`. DNG gives CFAPattern relative to the ActiveArea's
    /// top-left, and BayerImage relative to the stored image's, so an odd ActiveArea offset
    /// shifts the order.
    ///
    /// ```swift
    /// BayerPattern.rggb.shifted(x: 1, y: 0)   // .grbg
    /// ```
    public func shifted(x dx: Int, y dy: Int) -> BayerPattern {
        let cfa = (0..<4).map { UInt8(color(x: $0 % 2 + dx, y: $0 / 2 + dy)) }
        return BayerPattern(cfaPattern: cfa) ?? self
    }

    /// Four per-position values (black levels) seen from an origin moved by (dx, dy), like ``shifted(x:y:)``.
    public static func shift(_ values: [Double], x dx: Int, y dy: Int) -> [Double] {
        guard values.count == 4 else { return values }
        return (0..<4).map { values[((($0 / 2 + dy) & 1) * 2) + (($0 % 2 + dx) & 1)] }
    }
}
