// Reading the bits of an H.264/HEVC NAL unit's payload: emulation prevention removed, then
// fixed-width fields and Exp-Golomb codes (ITU-T H.265 §7.2, §9.2).
import DaguerreCore

/// A bit reader over a NAL unit's RBSP (raw byte sequence payload): the `00 00 03` emulation
/// prevention bytes are removed first, then fields are read most significant bit first.
/// Reading past the end is a typed error naming `context`.
///
/// ```swift
/// var r = NALBitReader(nal, context: "HEVC SPS")
/// try r.skip(16)                       // the NAL unit header
/// let id = try r.bits(4)
/// let chroma = try r.exponentialGolomb()
/// ```
struct NALBitReader {
    private let rbsp: [UInt8]
    private var position = 0
    private let context: String

    init(_ nal: [UInt8], context: String) {
        rbsp = Self.removingEmulationPrevention(nal)
        self.context = context
    }

    /// The payload bytes with every `03` that follows two zero bytes dropped.
    static func removingEmulationPrevention(_ nal: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for b in nal {
            if zeros >= 2, b == 3 {
                zeros = 0
                continue
            }
            zeros = b == 0 ? zeros + 1 : 0
            out.append(b)
        }
        return out
    }

    /// The unescaped bytes from `offset` (byte-aligned), `count` of them.
    func bytes(at offset: Int, count: Int) throws(DaguerreError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + count <= rbsp.count else { throw truncated() }
        return Array(rbsp[offset..<(offset + count)])
    }

    mutating func bit() throws(DaguerreError) -> UInt32 {
        guard position < rbsp.count * 8 else { throw truncated() }
        let b = (rbsp[position >> 3] >> (7 - UInt8(position & 7))) & 1
        position += 1
        return UInt32(b)
    }

    /// `count` (at most 32) bits as an unsigned number.
    mutating func bits(_ count: Int) throws(DaguerreError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<count { v = v << 1 | (try bit()) }
        return v
    }

    mutating func skip(_ count: Int) throws(DaguerreError) {
        guard count >= 0, position + count <= rbsp.count * 8 else { throw truncated() }
        position += count
    }

    /// ue(v): an unsigned Exp-Golomb code (at most 31 leading zeros).
    mutating func exponentialGolomb() throws(DaguerreError) -> UInt32 {
        var zeros = 0
        while try bit() == 0 {
            zeros += 1
            guard zeros < 32 else {
                throw .corruptData(format: context, detail: "an Exp-Golomb code has more than 31 leading zeros", path: nil)
            }
        }
        return (UInt32(1) << UInt32(zeros)) - 1 + (try bits(zeros))
    }

    private func truncated() -> DaguerreError {
        .corruptData(format: context, detail: "the parameter set ends early (\(rbsp.count) bytes)", path: nil)
    }
}
