// The entropy-coded data of a lossless JPEG scan, unstuffed and split at restart markers, for our
// hand-written lossless JPEG decoder (libjpeg-turbo 2.1 has no lossless mode). ITU-T T.81 B.1.1.5
// (byte stuffing, fill bytes) and F.1.2.3 (restart markers). SPEC R1; DNG 1.4 specification,
// Compression = 7 (lossless JPEG).
import DaguerreCore

/// A scan's entropy-coded bytes with the stuffed zero after each FF removed, as one contiguous
/// buffer followed by eight zero bytes, and the bit range of each restart interval within it.
///
/// Copying first (at about the speed of a memcpy: eight bytes at a time where no FF occurs)
/// lets the decoder read its next 57+ bits with one unaligned 64-bit load at any bit position,
/// with no per-byte marker test in the sample loop. The zero tail makes that load safe at the
/// end; the decoder clamps the load offset to ``count`` and compares bit positions against each
/// interval's end to detect a stream that is cut short.
///
/// ```swift
/// let data = try LosslessJPEGEntropyData(bytes, from: stream.entropyStart, intervals: 3)
/// defer { data.deallocate() }
/// ```
struct LosslessJPEGEntropyData {
    /// Unstuffed bytes; `count` of them plus 8 zero bytes are allocated.
    let bytes: UnsafeMutablePointer<UInt8>
    let count: Int
    /// Bit offsets of each restart interval found (`start..<end`), in order.
    let intervals: [Range<Int>]

    /// Copies from `start` to the first marker that is not an expected RSTn (or to the end).
    /// `intervals` is the number of restart intervals the frame has (1 without DRI): RSTn
    /// markers split the data only up to that many, and must come in the order RST0, RST1, ...
    init(_ source: UnsafeRawBufferPointer, from start: Int, intervals expected: Int) throws(DaguerreError) {
        let n = source.count
        let capacity = max(0, n - start)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + 8)
        var o = 0
        var i = start
        var found: [Range<Int>] = []
        var intervalStart = 0
        guard let src = source.baseAddress, start < n else {
            out.initialize(repeating: 0, count: 8)
            bytes = out
            count = 0
            intervals = [0..<0]
            return
        }
        scan: while i < n {
            // Eight bytes at a time while none of them is FF (SWAR: a zero byte in ~w). A word
            // that holds one is still stored whole (the buffer has 8 bytes of slack past any
            // output), and only its bytes before the first FF are kept: the lowest flag of the
            // SWAR test is exact (a false one can only sit above a true one), and the word is read
            // little-endian, so the lowest flag is the first byte.
            while i &+ 8 <= n {
                let w = UInt64(littleEndian: (src + i).loadUnaligned(as: UInt64.self))
                let x = ~w
                let flags = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                UnsafeMutableRawPointer(out + o).storeBytes(of: w.littleEndian, as: UInt64.self)
                if flags != 0 {
                    let before = flags.trailingZeroBitCount &>> 3
                    i &+= before
                    o &+= before
                    break
                }
                i &+= 8
                o &+= 8
            }
            guard i < n else { break }
            let b = src.load(fromByteOffset: i, as: UInt8.self)
            if b != 0xFF {
                out[o] = b
                o &+= 1
                i &+= 1
                continue
            }
            // FF: skip fill bytes, then a stuffed 00 means a data FF; anything else is a marker.
            var j = i + 1
            while j < n && src.load(fromByteOffset: j, as: UInt8.self) == 0xFF { j += 1 }
            guard j < n else { break }
            let m = src.load(fromByteOffset: j, as: UInt8.self)
            if m == 0 {
                out[o] = 0xFF
                o &+= 1
                i = j + 1
                continue
            }
            if (0xD0...0xD7).contains(m) && found.count + 1 < expected {
                let number = found.count % 8
                guard Int(m) - 0xD0 == number else {
                    out.deallocate()
                    throw .corruptData(
                        format: "lossless JPEG", detail: "restart marker RST\(Int(m) - 0xD0) where RST\(number) was due", path: nil)
                }
                found.append(intervalStart &* 8..<o &* 8)
                intervalStart = o
                i = j + 1
                continue
            }
            break scan
        }
        found.append(intervalStart &* 8..<o &* 8)
        (out + o).initialize(repeating: 0, count: 8)
        bytes = out
        count = o
        intervals = found
    }

    func deallocate() { bytes.deallocate() }
}
