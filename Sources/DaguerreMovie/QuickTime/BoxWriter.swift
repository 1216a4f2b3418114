// Big-endian serialisation of QuickTime atoms / ISO boxes. Written by hand: no library on this
// system writes QuickTime (TOOLCHAIN.md: libavformat cannot write a 'mebx' track).
import DaguerreCore
import DaguerreFormats

/// Builds atoms in memory with ``ByteWriter``: nested boxes whose sizes are filled in when the
/// body is complete.
///
/// Box sizes are 32-bit unless the body passes 4 GiB, when the box gets the 64-bit form (size 1
/// and an extended size), as ISO 14496-12 §4.2 and the QuickTime File Format allow. Used for
/// the movie atom and the other small boxes; sample data streams to the file directly.
///
/// ```swift
/// var w = ByteWriter()
/// w.box("ftyp") { w in w.fourCC("qt  "); w.u32(0); w.fourCC("qt  ") }
/// w.bytes.count   // 20
/// ```
extension ByteWriter {
    mutating func fourCC(_ c: FourCC) { u32(c.rawValue) }
    /// A QuickTime counted (Pascal) string in a fixed field of `fieldSize` bytes.
    mutating func pascalString(_ s: String, fieldSize: Int) {
        let text = Array(s.utf8.prefix(max(0, fieldSize - 1)))
        u8(UInt8(text.count))
        append(text)
        zeros(fieldSize - 1 - text.count)
    }
    /// A transformation matrix of mvhd/tkhd (16.16 a, b, c, d, tx, ty and 2.30 u, v, w).
    mutating func matrix(_ transform: TrackTransform = .identity) {
        for v in transform.fixedPoint { u32(UInt32(bitPattern: v)) }
    }

    /// A box: its 8-byte header, then whatever `body` writes; the size is patched afterwards.
    mutating func box<E: Error>(_ type: FourCC, _ body: (inout ByteWriter) throws(E) -> Void) throws(E) {
        let start = bytes.count
        u32(0)
        fourCC(type)
        try body(&self)
        let size = bytes.count - start
        if size <= Int(UInt32.max) {
            patch32(at: start, UInt32(size))
        } else {
            // 64-bit form: size field 1, then the extended size after the type.
            patch32(at: start, 1)
            var large = ByteWriter(capacity: 8)
            large.u64(UInt64(size + 8))
            bytes.insert(contentsOf: large.bytes, at: start + 8)
        }
    }

    /// A full box: a box whose body starts with a version byte and 24 bits of flags.
    mutating func fullBox<E: Error>(
        _ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0,
        _ body: (inout ByteWriter) throws(E) -> Void
    ) throws(E) {
        try box(type) { (w: inout ByteWriter) throws(E) in
            w.u8(version)
            w.u24(flags)
            try body(&w)
        }
    }

}
