// Bounds-checked big-endian reading of byte records: QuickTime atoms, DNG opcode lists.
import DaguerreCore

/// A cursor over an in-memory byte array whose every read is checked against a limit.
///
/// Every failure is a ``DaguerreError``, never a trap: the bytes come from files anyone can
/// write (SPEC conventions: no input may crash). Boxes of a movie fail as `.corruptData` naming
/// the box; whole big-endian records (DNG opcode lists) fail as `.truncated`.
///
/// ```swift
/// var r = ByteReader(bytes, range: box.bodyStart..<box.end, context: "mvhd")
/// let version = try r.u8()
/// var opcodes = ByteReader(list, truncated: "DNG opcode list")
/// let count = try opcodes.u32()
/// ```
package struct ByteReader {
    package let bytes: [UInt8]
    package private(set) var position: Int
    package let end: Int
    package let context: String
    /// True when a short read means the whole record ended early (`.truncated`), not a box
    /// too short for its fields.
    private let truncatedRecord: Bool

    /// A reader over `range` of a QuickTime box named `context`.
    package init(_ bytes: [UInt8], range: Range<Int>, context: String) {
        self.bytes = bytes
        let lower = min(max(0, range.lowerBound), bytes.count)
        position = lower
        end = max(lower, min(range.upperBound, bytes.count))
        self.context = context
        truncatedRecord = false
    }

    /// A reader over all of `bytes`, a record of `format` whose short reads are `.truncated`.
    package init(_ bytes: [UInt8], truncated format: String) {
        self.bytes = bytes
        position = 0
        end = bytes.count
        context = format
        truncatedRecord = true
    }

    package var remaining: Int { end - position }

    private func fail(_ what: String) -> DaguerreError {
        truncatedRecord
            ? .truncated(format: context, path: nil)
            : .corruptData(format: "QuickTime", detail: "the '\(context)' box is too short for its \(what)", path: nil)
    }

    package mutating func need(_ n: Int, _ what: String) throws(DaguerreError) {
        guard n >= 0, n <= remaining else { throw fail(what) }
    }
    package mutating func skip(_ n: Int, _ what: String = "fields") throws(DaguerreError) {
        try need(n, what)
        position += n
    }
    package mutating func u8(_ what: String = "fields") throws(DaguerreError) -> UInt8 {
        try need(1, what)
        defer { position += 1 }
        return bytes[position]
    }
    package mutating func u16(_ what: String = "fields") throws(DaguerreError) -> UInt16 {
        try need(2, what)
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }
    package mutating func u24(_ what: String = "fields") throws(DaguerreError) -> UInt32 {
        try need(3, what)
        defer { position += 3 }
        return UInt32(bytes[position]) << 16 | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2])
    }
    package mutating func u32(_ what: String = "fields") throws(DaguerreError) -> UInt32 {
        try need(4, what)
        defer { position += 4 }
        return ByteReader.load32(bytes, position)
    }
    package mutating func u64(_ what: String = "fields") throws(DaguerreError) -> UInt64 {
        let hi = try u32(what)
        let lo = try u32(what)
        return UInt64(hi) << 32 | UInt64(lo)
    }
    package mutating func i16(_ what: String = "fields") throws(DaguerreError) -> Int16 { Int16(bitPattern: try u16(what)) }
    package mutating func i32(_ what: String = "fields") throws(DaguerreError) -> Int32 { Int32(bitPattern: try u32(what)) }
    package mutating func f32(_ what: String = "fields") throws(DaguerreError) -> Float { Float(bitPattern: try u32(what)) }
    package mutating func f64(_ what: String = "fields") throws(DaguerreError) -> Double { Double(bitPattern: try u64(what)) }
    package mutating func read(_ n: Int, _ what: String = "data") throws(DaguerreError) -> [UInt8] {
        try need(n, what)
        defer { position += n }
        return Array(bytes[position..<(position + n)])
    }
    /// The rest of the range.
    package mutating func rest() -> [UInt8] {
        defer { position = end }
        return Array(bytes[position..<end])
    }

    package static func load32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }
}
