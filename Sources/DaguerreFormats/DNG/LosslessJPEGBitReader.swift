// The bit reader of our hand-written lossless JPEG decoder (libjpeg-turbo 2.1 has no lossless
// mode), over the unstuffed data of ``LosslessJPEGEntropyData``. SPEC R1; DNG 1.4
// specification, Compression = 7 (lossless JPEG).

/// A most-significant-bit-first reader with a 64-bit buffer and a branch-free refill.
///
/// ``refill()`` is F. Giesen's "variant 4": it ORs the next eight bytes in below the valid bits
/// and advances by whole bytes, leaving 56 to 63 valid bits. Its load depends only on the
/// previous refill, not on the code being decoded, so the loop's critical path is just
/// lookup → length → shift. The load offset is clamped to the data's end (which has 8 zero
/// bytes after it): a damaged stream reads zeros there rather than past the allocation, and
/// ``position`` grows past the end so the caller can report the truncation.
///
/// ```swift
/// var reader = LosslessJPEGBitReader(data.bytes, limit: data.count, startByte: 0)
/// reader.refill()
/// let top11 = reader.buffer >> 53
/// reader.consume(3)
/// ```
struct LosslessJPEGBitReader {
    /// The next bits, most significant first; the top ``available`` are valid.
    private(set) var buffer: UInt64 = 0
    private(set) var available = 0
    /// The first byte whose bits are not yet in the buffer.
    private var next: Int
    private let bytes: UnsafePointer<UInt8>
    private let limit: Int

    init(_ bytes: UnsafePointer<UInt8>, limit: Int, startByte: Int) {
        self.bytes = bytes
        self.limit = limit
        next = startByte
    }

    /// Tops the buffer up to at least 56 valid bits.
    @inline(__always)
    mutating func refill() {
        let word = UnsafeRawPointer(bytes + min(next, limit)).loadUnaligned(as: UInt64.self).bigEndian
        buffer |= word &>> available
        next &+= (63 &- available) &>> 3
        available |= 56
    }

    /// Drops `count` bits (at most ``available``).
    @inline(__always)
    mutating func consume(_ count: Int) {
        buffer = buffer &<< count
        available &-= count
    }

    /// Bits consumed since the start of the data.
    var position: Int { next &* 8 &- available }
}
