// Splitting QuickTime atoms / ISO boxes, over the bounds-checked ByteReader (Common/). Written
// by hand (the box layer of the reader is Daguerre's own; libavformat is not used for parsing).
import DaguerreCore
import DaguerreFormats

/// One box header found in a byte range.
struct BoxHeader: Sendable, Equatable {
    var type: FourCC
    /// Offset of the size field.
    var start: Int
    /// 8, or 16 for the 64-bit size form.
    var headerSize: Int
    /// Offset one past the box's last byte.
    var end: Int
    var bodyStart: Int { start + headerSize }
    var bodySize: Int { end - bodyStart }
}

extension ByteReader {
    mutating func fourCC(_ what: String = "type code") throws(DaguerreError) -> FourCC { FourCC(try u32(what)) }
}

/// Splits a byte range into boxes, checking every size against the range that holds it.
///
/// Rules (ISO 14496-12 §4.2, QuickTime File Format "Atoms"): size 1 means a 64-bit size follows
/// the type; size 0 means "to the end of the file" and is refused inside a parent;
/// a size smaller than its header, or one that passes the end of its parent, is damage.
/// Sizes always move forward, so a walk cannot loop; nesting depth is bounded by the caller.
enum BoxScanner {
    /// The boxes in `range` of `bytes`, in order. `truncatedAtEnd` says a box that passes the
    /// end is a truncated file (top level) rather than a damaged parent.
    static func boxes(
        in bytes: [UInt8], range: Range<Int>, parent: String,
        truncatedAtEnd: Bool = false, maxBoxes: Int = 1 << 20
    ) throws(DaguerreError) -> [BoxHeader] {
        var result: [BoxHeader] = []
        var offset = max(0, range.lowerBound)
        let end = min(range.upperBound, bytes.count)
        while offset < end {
            // A QuickTime atom list may end with a 32-bit zero terminator (udta, user data lists).
            if end - offset < 8 {
                if end - offset == 4, ByteReader.load32(bytes, offset) == 0 { break }
                if truncatedAtEnd { throw .truncated(format: "QuickTime", path: nil) }
                throw .corruptData(format: "QuickTime", detail: "\(end - offset) stray bytes at the end of '\(parent)'", path: nil)
            }
            let header = try parseHeader(
                size32: ByteReader.load32(bytes, offset), type: FourCC(ByteReader.load32(bytes, offset + 4)),
                large: end - offset >= 16
                    ? UInt64(ByteReader.load32(bytes, offset + 8)) << 32 | UInt64(ByteReader.load32(bytes, offset + 12)) : nil,
                at: offset, limit: end, parent: parent, truncatedAtEnd: truncatedAtEnd)
            result.append(header)
            guard result.count <= maxBoxes else {
                throw .tooLarge(what: "Number of boxes in '\(parent)'", value: result.count, limit: maxBoxes)
            }
            offset = header.end
        }
        return result
    }

    /// One header from its raw fields; `large` is the 64-bit size when 16 bytes were available.
    static func parseHeader(
        size32: UInt32, type: FourCC, large: UInt64?, at offset: Int, limit end: Int,
        parent: String, truncatedAtEnd: Bool
    ) throws(DaguerreError) -> BoxHeader {
        var headerSize = 8
        var size: UInt64 = UInt64(size32)
        if size32 == 1 {
            guard let large else {
                if truncatedAtEnd { throw .truncated(format: "QuickTime", path: nil) }
                throw .corruptData(format: "QuickTime", detail: "the 64-bit size of '\(type)' in '\(parent)' is cut off", path: nil)
            }
            headerSize = 16
            size = large
        } else if size32 == 0 {
            // "To the end of the file" is for the last top-level box only (ISO 14496-12 §4.2);
            // inside a parent it would swallow the siblings.
            guard truncatedAtEnd else {
                throw .corruptData(format: "QuickTime", detail: "box '\(type)' in '\(parent)' declares size 0", path: nil)
            }
            size = UInt64(end - offset)
        }
        guard size >= UInt64(headerSize) else {
            throw .corruptData(
                format: "QuickTime", detail: "box '\(type)' in '\(parent)' declares \(size) bytes, less than its own header", path: nil)
        }
        guard size <= UInt64(end - offset) else {
            if truncatedAtEnd { throw .truncated(format: "QuickTime", path: nil) }
            throw .corruptData(
                format: "QuickTime", detail: "box '\(type)' declares \(size) bytes but '\(parent)' has only \(end - offset) left", path: nil
            )
        }
        return BoxHeader(type: type, start: offset, headerSize: headerSize, end: offset + Int(size))
    }
}
