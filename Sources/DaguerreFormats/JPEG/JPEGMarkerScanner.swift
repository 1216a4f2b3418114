// Walks a JPEG's marker segments (ITU-T T.81 B.1): metadata reading and splicing never decode pixels.
import DaguerreCore

/// The marker segments of a JPEG up to its first SOS, and where its entropy-coded data ends.
///
/// Every length is checked against the data, so a damaged file is a typed error, never a trap.
///
/// ```swift
/// let scan = try JPEGMarkerScanner(bytes)
/// for s in scan.segments where s.marker == 0xE1 { ... }
/// ```
package struct JPEGMarkerScanner {
    package struct Segment {
        package var marker: UInt8
        /// Range of the payload (after the 2-byte length) in the scanned bytes.
        package var payload: Range<Int>
        /// Range of the whole segment, from its 0xFF.
        package var whole: Range<Int>
    }
    package var segments: [Segment] = []
    /// Position of the first SOS marker's 0xFF.
    package var scanStart: Int
    /// Frame size from SOFn.
    package var width = 0, height = 0, components = 0

    package init(_ b: [UInt8]) throws(DaguerreError) {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else {
            throw .corruptData(format: "JPEG", detail: "it does not start with SOI", path: nil)
        }
        var p = 2
        while true {
            // Fill bytes (0xFF runs) may precede a marker.
            guard p + 1 < b.count else { throw .truncated(format: "JPEG", path: nil) }
            guard b[p] == 0xFF else { throw .corruptData(format: "JPEG", detail: "no marker at byte \(p)", path: nil) }
            var q = p + 1
            while q < b.count, b[q] == 0xFF { q += 1 }
            guard q < b.count else { throw .truncated(format: "JPEG", path: nil) }
            let marker = b[q]
            if marker == 0xDA {
                scanStart = p
                return
            }
            if marker == 0xD9 { throw .corruptData(format: "JPEG", detail: "EOI before any image data", path: nil) }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                p = q + 1
                continue
            }
            guard q + 2 < b.count else { throw .truncated(format: "JPEG", path: nil) }
            let length = Int(b[q + 1]) << 8 | Int(b[q + 2])
            guard length >= 2 else { throw .corruptData(format: "JPEG", detail: "a segment length of \(length)", path: nil) }
            let end = q + 1 + length
            guard end <= b.count else { throw .truncated(format: "JPEG", path: nil) }
            let payload = (q + 3)..<end
            if [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF].contains(marker), payload.count >= 6 {
                height = Int(b[payload.lowerBound + 1]) << 8 | Int(b[payload.lowerBound + 2])
                width = Int(b[payload.lowerBound + 3]) << 8 | Int(b[payload.lowerBound + 4])
                components = Int(b[payload.lowerBound + 5])
            }
            segments.append(Segment(marker: marker, payload: payload, whole: p..<end))
            p = end
        }
    }

    /// The position just after the EOI that ends the entropy-coded data (for trailers such as a
    /// Motion Photo's video); nil when the data has no EOI.
    package func endOfImage(in b: [UInt8]) -> Int? {
        var p = scanStart
        while p + 1 < b.count {
            if b[p] == 0xFF {
                let m = b[p + 1]
                if m == 0xD9 { return p + 2 }
                // A marker segment between scans (DHT, SOS, DRI...) has a length to skip; stuffed
                // zeros, RSTn and fill bytes do not.
                if m != 0x00, m != 0xFF, !(0xD0...0xD7).contains(m), p + 3 < b.count {
                    let length = Int(b[p + 2]) << 8 | Int(b[p + 3])
                    p += 2 + max(length, 2)
                    continue
                }
            }
            p += 1
        }
        return nil
    }
}
