// A QR code's modules from its final codewords (ISO/IEC 18004, sections 7.6–7.9): the function
// patterns, the format and version information, the codewords placed in the two-column
// zig-zag, and the data mask. No library here does this: libqrencode and libzint encode a
// message from the start and cannot place codewords that were already error-corrected, which is
// what a barcode descriptor holds.
import DaguerreCore

/// The module grid of a QR code of `version` (1–40) whose final message (data and error
/// correction codewords, interleaved as the symbol holds them) is given, masked by `mask` (0–7),
/// with the level's format information.
///
/// ```swift
/// let symbol = try QRSymbolLayout(version: 1, level: "M", mask: 2, codewords: payload)
/// print(symbol.size, symbol.dark.count)   // 21, 441
/// ```
struct QRSymbolLayout: Sendable {
    let size: Int
    /// Row-major, true for a dark module.
    private(set) var dark: [Bool]
    private var function: [Bool]

    /// The number of codewords a version holds (data and error correction together).
    static func codewordCount(version v: Int) -> Int {
        var bits = (16 * v + 128) * v + 64
        if v >= 2 {
            let align = v / 7 + 2
            bits -= (25 * align - 10) * align - 55
            if v >= 7 { bits -= 36 }
        }
        return bits / 8
    }

    /// The two format bits of each level (L 01, M 00, Q 11, H 10).
    static let levelBits: [String: Int] = ["L": 1, "M": 0, "Q": 3, "H": 2]

    init(version: Int, level: String, mask: Int, codewords: [UInt8]) throws(DaguerreError) {
        guard (1...40).contains(version) else {
            throw .invalidArgument(what: "QR code version \(version)", problem: "versions are 1 to 40")
        }
        guard let levelBits = Self.levelBits[level] else {
            throw .invalidArgument(what: "QR code level '\(level)'", problem: "levels are L, M, Q and H")
        }
        guard (0...7).contains(mask) else { throw .invalidArgument(what: "QR code mask \(mask)", problem: "masks are 0 to 7") }
        let expected = Self.codewordCount(version: version)
        guard codewords.count == expected else {
            throw .invalidArgument(
                what: "QR code payload of \(codewords.count) codewords",
                problem: "a version \(version) symbol holds \(expected) (data and error correction together)")
        }
        size = 17 + 4 * version
        dark = [Bool](repeating: false, count: size * size)
        function = dark
        placeFunctionPatterns(version: version)
        placeFormat(levelBits << 3 | mask)
        if version >= 7 { placeVersion(version) }
        placeCodewords(codewords, mask: mask)
    }

    private mutating func set(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        function[y * size + x] = true
    }

    private mutating func placeFunctionPatterns(version: Int) {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let (x, y) = (cx + dx, cy + dy)
                    guard x >= 0, x < size, y >= 0, y < size else { continue }
                    let ring = max(abs(dx), abs(dy))
                    set(x, y, ring != 2 && ring != 4)
                }
            }
        }
        let centres = Self.alignmentCentres(version: version, size: size)
        for (i, cy) in centres.enumerated() {
            for (j, cx) in centres.enumerated() {
                let last = centres.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 { for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) } }
            }
        }
        // The format areas are reserved now and written by placeFormat (the timing modules
        // between them stay).
        for i in 0..<9 where i != 6 {
            set(8, i, false)
            set(i, 8, false)
        }
        for i in 0..<8 {
            set(size - 1 - i, 8, false)
            set(8, size - 1 - i, false)
        }
    }

    /// The centres of the alignment patterns along each axis.
    static func alignmentCentres(version: Int, size: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var centres = [6]
        var p = size - 7
        var tail: [Int] = []
        while tail.count < count - 1 {
            tail.insert(p, at: 0)
            p -= step
        }
        centres += tail
        return centres
    }

    /// The 15 format bits, BCH(15, 5) of the level and mask, XOR 101010000010010, in both copies;
    /// and the dark module.
    private mutating func placeFormat(_ data: Int) {
        var rem = data
        for _ in 0..<10 { rem = (rem << 1) ^ ((rem >> 9) * 0x537) }
        let bits = (data << 10 | rem) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// The 18 version bits, BCH(18, 6) of the version, beside the two finders that have room.
    private mutating func placeVersion(_ version: Int) {
        var rem = version
        for _ in 0..<12 { rem = (rem << 1) ^ ((rem >> 11) * 0x1F25) }
        let bits = version << 12 | rem
        for i in 0..<18 {
            let isDark = (bits >> i) & 1 == 1
            let (a, b) = (size - 11 + i % 3, i / 3)
            set(a, b, isDark)
            set(b, a, isDark)
        }
    }

    /// The codewords' bits, most significant first, up and down two-column strips from the
    /// right (skipping the vertical timing column), each data module then masked.
    private mutating func placeCodewords(_ codewords: [UInt8], mask: Int) {
        let bitCount = codewords.count * 8
        var i = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for x in [right, right - 1] where !function[y * size + x] {
                    var isDark = false
                    if i < bitCount {
                        isDark = (codewords[i >> 3] >> (7 - UInt8(i & 7))) & 1 == 1
                        i += 1
                    }
                    dark[y * size + x] = isDark != Self.masked(mask, x: x, y: y)
                }
            }
            right -= 2
        }
    }

    /// Whether mask `k` inverts the module at column `x`, row `y`.
    static func masked(_ k: Int, x: Int, y: Int) -> Bool {
        switch k {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }
}
