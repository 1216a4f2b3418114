// Fujifilm's X-Trans colour filter array (SPEC R1, X6): a 6×6 repeat of 20 green, 8 red and 8
// blue photosites, every row and column holding all three colours. DNG describes it with
// CFARepeatPatternDim 6×6 and 36 CFAPattern bytes; LibRaw gives it as xtrans[6][6].

/// A 6×6 X-Trans colour filter array, row-major colours (0 red, 1 green, 2 blue).
///
/// Accepted layouts are X-Trans itself seen from any origin, or mirrored or turned: the
/// X-Trans demosaic relies on its geometry (every red or blue photosite has green neighbours
/// in each of the four directions within three photosites). Any other 6×6 pattern is refused.
///
/// ```swift
/// let p = XTransPattern.standard
/// p.color(x: 2, y: 0)            // 0 (red)
/// p.shifted(x: 1, y: 0).cfaPattern.count   // 36
/// XTransPattern(cfaPattern: [0, 1, 1, 2]) // nil: not a 6×6 X-Trans layout
/// ```
public struct XTransPattern: Sendable, Hashable {
    /// The 36 CFAPattern bytes, row-major over the 6×6 block.
    public let cfaPattern: [UInt8]

    /// The X-Trans layout as DNG and LibRaw write it for most X-series cameras.
    public static let standard = XTransPattern(checked: [
        1, 1, 0, 1, 1, 2,
        1, 1, 2, 1, 1, 0,
        2, 0, 1, 0, 2, 1,
        1, 1, 2, 1, 1, 0,
        1, 1, 0, 1, 1, 2,
        0, 2, 1, 2, 0, 1,
    ])

    private init(checked: [UInt8]) { cfaPattern = checked }

    /// The layout a 6×6 CFAPattern describes, or nil if it is not an X-Trans layout.
    public init?(cfaPattern: [UInt8]) {
        guard cfaPattern.count == 36, Self.accepted.contains(cfaPattern) else { return nil }
        self.cfaPattern = cfaPattern
    }

    /// Every X-Trans layout: the standard one from each of its 36 origins, under each of the
    /// square's 8 symmetries.
    private static let accepted: Set<[UInt8]> = {
        var all = Set<[UInt8]>()
        let base = standard.cfaPattern
        for symmetry in 0..<8 {
            for dy in 0..<6 {
                for dx in 0..<6 {
                    var p = [UInt8](repeating: 0, count: 36)
                    for y in 0..<6 {
                        for x in 0..<6 {
                            var (u, v) = symmetry & 4 != 0 ? (y, x) : (x, y)
                            if symmetry & 1 != 0 { u = 5 - u }
                            if symmetry & 2 != 0 { v = 5 - v }
                            p[y * 6 + x] = base[((v + dy) % 6) * 6 + (u + dx) % 6]
                        }
                    }
                    all.insert(p)
                }
            }
        }
        return all
    }()

    /// The colour (0 red, 1 green, 2 blue) at photosite (x, y); any integers, negative ones too.
    @inline(__always) public func color(x: Int, y: Int) -> Int {
        let px = ((x % 6) + 6) % 6
        let py = ((y % 6) + 6) % 6
        return Int(cfaPattern[py * 6 + px])
    }

    /// The same mosaic seen from an origin moved by (dx, dy): `shifted(x: dx, y: dy).color(x:y:)`
    /// equals `color(x: x + dx, y: y + dy)` (DNG counts CFAPattern from the ActiveArea's corner).
    public func shifted(x dx: Int, y dy: Int) -> XTransPattern {
        XTransPattern(checked: (0..<36).map { UInt8(color(x: $0 % 6 + dx, y: $0 / 6 + dy)) })
    }
}
