// Big-endian serialisation of byte records: QuickTime atoms (with the box helpers in
// QuickTime/ByteWriter.swift) and DNG opcode lists.

/// Appends big-endian integers and floats to a byte array.
///
/// ```swift
/// var w = ByteWriter()
/// w.u32(1); w.f64(0.5)
/// w.bytes.count   // 12
/// ```
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }
    package mutating func u24(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }
    package mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v >> 24))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }
    package mutating func u64(_ v: UInt64) {
        u32(UInt32(truncatingIfNeeded: v >> 32))
        u32(UInt32(truncatingIfNeeded: v))
    }
    package mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    package mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    package mutating func f32(_ v: Float) { u32(v.bitPattern) }
    package mutating func f64(_ v: Double) { u64(v.bitPattern) }
    package mutating func append(_ b: [UInt8]) { bytes.append(contentsOf: b) }
    package mutating func zeros(_ n: Int) { bytes.append(contentsOf: repeatElement(0, count: max(0, n))) }
    /// UTF-8 bytes with no terminator.
    package mutating func utf8(_ s: String) { bytes.append(contentsOf: Array(s.utf8)) }
    package mutating func patch32(at offset: Int, _ v: UInt32) {
        bytes[offset] = UInt8(truncatingIfNeeded: v >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: v >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: v >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: v)
    }
}
