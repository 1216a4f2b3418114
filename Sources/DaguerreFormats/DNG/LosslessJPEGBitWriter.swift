// The bit writer of our hand-written lossless JPEG encoder (libjpeg-turbo 2.1 has no lossless
// mode): codes packed most significant bit first, then a 00 stuffed after every FF byte
// (ITU-T T.81 B.1.1.5, F.1.2.3). SPEC R1; DNG 1.4 specification, Compression = 7.

/// Packs codes of up to 32 bits, without stuffing, into a buffer sized by the caller.
///
/// Each ``write(_:count:)`` is branch-free: the accumulator's pending bits are stored as one
/// big-endian 8-byte word and the position advances by the whole bytes among them, so the
/// buffer needs 8 bytes of slack after the last byte kept. Byte stuffing is a separate pass,
/// ``stuff(_:count:into:)``, which copies eight bytes at a time where no FF occurs: cheaper
/// than a test per byte in the writer, since FF is rare in Huffman-coded data.
///
/// ```swift
/// var writer = LosslessJPEGBitWriter(scratch)
/// writer.write(0b101, count: 3)
/// writer.flushToByte()                                   // pads with 1 bits
/// let n = LosslessJPEGBitWriter.stuff(scratch, count: writer.position, into: output)
/// ```
struct LosslessJPEGBitWriter {
    private let base: UnsafeMutablePointer<UInt8>
    /// Whole bytes written.
    private(set) var position = 0
    private var accumulator: UInt64 = 0
    /// Bits in the accumulator not yet in a whole byte (0...7 between writes).
    private var pending = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Appends the low `count` bits of `bits` (1 ≤ count ≤ 32; the higher bits must be zero).
    @inline(__always)
    mutating func write(_ bits: UInt32, count: Int) {
        accumulator = accumulator &<< count | UInt64(bits)
        pending &+= count
        UnsafeMutableRawPointer(base + position).storeBytes(of: (accumulator &<< (64 &- pending)).bigEndian, as: UInt64.self)
        position &+= pending &>> 3
        pending &= 7
    }

    /// Completes the last byte with 1 bits (T.81 F.1.2.3) and starts again at `position`.
    mutating func flushToByte() {
        if pending > 0 {
            base[position] = UInt8(truncatingIfNeeded: accumulator &<< (8 - pending)) | UInt8(0xFF >> pending)
            position += 1
            pending = 0
        }
    }

    /// Copies `count` bytes with a 00 after each FF; returns the bytes written (at most 2 × count).
    static func stuff(_ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0
        var o = 0
        while i < count {
            if i &+ 8 <= count {
                let w = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                let x = ~w
                if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 == 0 {
                    UnsafeMutableRawPointer(destination + o).storeBytes(of: w, as: UInt64.self)
                    i &+= 8
                    o &+= 8
                    continue
                }
            }
            let b = source[i]
            destination[o] = b
            o &+= 1
            if b == 0xFF {
                destination[o] = 0
                o &+= 1
            }
            i &+= 1
        }
        return o
    }
}
