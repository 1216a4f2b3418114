// H.264 byte-stream (Annex B) parsing and conversion to length-prefixed NAL units (ISO 14496-15).
import DaguerreCore
import DaguerreFormats

/// Turns H.264 Annex-B byte streams (NAL units after 00 00 01 / 00 00 00 01 start codes, what
/// x264 emits) into the form QuickTime and MP4 samples hold: each NAL unit after its length as a
/// 4-byte big-endian number, with the parameter sets moved to the `avcC` record (TOOLCHAIN.md).
///
/// ```swift
/// let nals = AnnexB.nalUnits(in: stream)               // without start codes
/// let sample = AnnexB.lengthPrefixed(nals.filter { AnnexB.type(of: $0) != 7 })
/// ```
public enum AnnexB {
    /// The NAL units of an Annex-B stream, start codes removed. Bytes before the first start
    /// code are ignored; trailing zero bytes of a unit (the next start code's leading zero) are
    /// dropped, as H.264 B.2 says.
    public static func nalUnits(in stream: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var i = 0
        var start = -1
        let n = stream.count
        while i + 2 < n {
            if stream[i] == 0, stream[i + 1] == 0, stream[i + 2] == 1 {
                if start >= 0 { units.append(trimmed(stream, start, i)) }
                i += 3
                start = i
                continue
            }
            i += 1
        }
        if start >= 0, start <= n { units.append(trimmed(stream, start, n)) }
        return units.filter { !$0.isEmpty }
    }

    private static func trimmed(_ s: [UInt8], _ from: Int, _ to: Int) -> [UInt8] {
        var end = to
        while end > from, s[end - 1] == 0 { end -= 1 }
        return Array(s[from..<end])
    }

    /// nal_unit_type: 1 slice, 5 IDR slice, 6 SEI, 7 SPS, 8 PPS, 9 access unit delimiter.
    public static func type(of nal: [UInt8]) -> UInt8 { nal.first.map { $0 & 0x1F } ?? 0 }

    /// The units, each after its length as a 4-byte big-endian number.
    public static func lengthPrefixed(_ nals: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nals.reduce(0) { $0 + $1.count + 4 })
        for nal in nals {
            let n = UInt32(truncatingIfNeeded: nal.count)
            out.append(UInt8(truncatingIfNeeded: n >> 24))
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
            out.append(contentsOf: nal)
        }
        return out
    }

    /// The NAL units of a length-prefixed sample, or nil when a length passes the end.
    public static func nalUnits(inLengthPrefixed sample: [UInt8], lengthSize: Int = 4) -> [[UInt8]]? {
        guard [1, 2, 4].contains(lengthSize) else { return nil }
        var units: [[UInt8]] = []
        var i = 0
        while i < sample.count {
            guard sample.count - i >= lengthSize else { return nil }
            var len = 0
            for k in 0..<lengthSize { len = len << 8 | Int(sample[i + k]) }
            i += lengthSize
            guard len <= sample.count - i else { return nil }
            units.append(Array(sample[i..<(i + len)]))
            i += len
        }
        return units
    }
}
