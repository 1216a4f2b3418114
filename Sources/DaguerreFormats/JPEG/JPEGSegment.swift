// JPEG marker segments (ITU-T T.81 B.1.1.4; EXIF 2.32 §4.5.4 for APP1, XMP Part 3 for XMP).
import DaguerreCore

/// One APPn (or COM) marker segment to write after SOI.
///
/// ```swift
/// let exif = JPEGSegment.exif(TIFFSerializer.file(EXIFCodec.directories(for: m), byteOrder: .bigEndian))
/// let xmp = JPEGSegment.xmp(packet.serialized())
/// ```
public struct JPEGSegment: Sendable, Equatable {
    /// The marker's second byte: 0xE1 for APP1, 0xE2 for APP2, 0xFE for COM.
    public var marker: UInt8
    public var payload: [UInt8]
    public init(marker: UInt8, payload: [UInt8]) {
        self.marker = marker
        self.payload = payload
    }

    /// The largest payload a segment can hold (its length field counts itself).
    public static let maxPayload = 65_533
    package static let exifIdentifier: [UInt8] = Array("Exif".utf8) + [0, 0]
    package static let xmpIdentifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    package static let iccIdentifier: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// APP1 "Exif\0\0" + a TIFF structure.
    public static func exif(_ tiff: [UInt8]) -> JPEGSegment { JPEGSegment(marker: 0xE1, payload: exifIdentifier + tiff) }
    /// APP1 with the XMP namespace identifier + the packet.
    public static func xmp(_ packet: String) -> JPEGSegment { JPEGSegment(marker: 0xE1, payload: xmpIdentifier + Array(packet.utf8)) }

    /// The bytes for the C bridge: [marker][length, big-endian][payload]. A payload too large
    /// for one segment is refused, never dropped.
    package static func bridged(_ segments: [JPEGSegment]) throws(DaguerreError) -> [UInt8] {
        var out: [UInt8] = []
        for s in segments {
            guard s.payload.count <= maxPayload else {
                throw .tooLarge(what: "JPEG APP segment (bytes)", value: s.payload.count, limit: maxPayload)
            }
            out += [s.marker, UInt8(s.payload.count >> 8), UInt8(s.payload.count & 0xFF)] + s.payload
        }
        return out
    }

    /// The segment as it appears in a file: FF, marker, length (payload + 2), payload.
    package var fileBytes: [UInt8] {
        let n = payload.count + 2
        return [0xFF, marker, UInt8(n >> 8), UInt8(n & 0xFF)] + payload
    }
}
