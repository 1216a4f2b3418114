// Four-character codes: the type names of QuickTime atoms and ISO boxes.
import DaguerreCore
import DaguerreFormats

/// A four-character code, the name of every QuickTime atom and ISO base media box ('moov',
/// 'trak', 'avc1', '©nam').
///
/// Stored as the big-endian 32-bit number the file holds. Characters above ASCII are read as
/// Latin-1, so Apple's user-data keys such as '©nam' (0xA9 'n' 'a' 'm') round-trip; a literal
/// that is not four Latin-1 characters becomes four spaces rather than a trap (string literals
/// are written by programmers, and a wrong one shows up at once as an unknown box).
///
/// ```swift
/// let moov: FourCC = "moov"
/// moov.rawValue              // 0x6D6F_6F76
/// FourCC(0xA96E_616D).description   // "©nam"
/// ```
public struct FourCC: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code as a big-endian 32-bit number.
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// Four Latin-1 characters; nil for any other string.
    public init?(string: String) {
        let scalars = Array(string.unicodeScalars)
        guard scalars.count == 4, scalars.allSatisfy({ $0.value <= 0xFF }) else { return nil }
        rawValue = scalars.reduce(0) { ($0 << 8) | $1.value }
    }

    public init(stringLiteral value: String) {
        self = FourCC(string: value) ?? FourCC(0x2020_2020)
    }

    /// The four bytes in file order.
    public var bytes: [UInt8] {
        [
            UInt8(truncatingIfNeeded: rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16),
            UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue),
        ]
    }

    /// The characters (Latin-1), or `0x…` hex when a byte is not printable.
    public var description: String {
        let b = bytes
        guard b.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0xA9 }) else {
            return "0x" + String(rawValue, radix: 16, uppercase: true)
        }
        return String(String.UnicodeScalarView(b.map { Unicode.Scalar($0) }))
    }
}
