// The top-level boxes of an ISO base media file (MP4, QuickTime, HEIF), as far as they are whole:
// how a file inside another is found and measured (a Motion Photo's MP4, a HEIC's video). A
// lenient walk that stops where the boxes stop; the movie reader's strict parser checks the rest.

/// Walks top-level boxes without throwing: it stops at the first bytes that are not a whole box
/// (a vendor's trailer, a cut file, the end).
///
/// ```swift
/// let (boxes, end) = TopLevelBoxes.walk(file, from: start)   // end: where the MP4 stops
/// let video = boxes.last { $0.type == "mpvd" }
/// ```
package enum TopLevelBoxes {
    /// One whole box: its type, its bytes (header included) and where its body starts.
    package struct Box: Sendable, Equatable {
        package var type: String
        package var range: Range<Int>
        package var bodyStart: Int
    }

    /// The whole boxes from `start`, in order, and the offset where they end. Sizes follow
    /// ISO 14496-12 §4.2: 1 means a 64-bit size follows the type, 0 means "to the end". A type
    /// that is not printable ASCII, or a size smaller than its header or past the end, stops
    /// the walk.
    package static func walk(_ bytes: [UInt8], from start: Int = 0) -> (boxes: [Box], end: Int) {
        var at = max(0, start)
        var boxes: [Box] = []
        while at + 8 <= bytes.count {
            let size32 = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = bytes[(at + 4)..<(at + 8)]
            guard type.allSatisfy({ (0x20...0x7E).contains($0) }) else { break }
            var header = 8
            var size = size32
            if size32 == 1 {
                guard at + 16 <= bytes.count else { break }
                size = bytes[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size32 == 0 {
                size = bytes.count - at
            }
            guard size >= header, size <= bytes.count - at else { break }
            boxes.append(Box(type: String(decoding: type, as: UTF8.self), range: at..<(at + size), bodyStart: at + header))
            at += size
        }
        return (boxes, at)
    }

    /// Whether a whole `ftyp` box (the start of an MP4 or HEIF file) begins at `offset`.
    package static func isFileType(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + 8 <= bytes.count, bytes[(offset + 4)..<(offset + 8)].elementsEqual("ftyp".utf8) else { return false }
        let size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        return size >= 8 && size <= bytes.count - offset
    }
}
