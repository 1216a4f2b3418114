// Reading and replacing a JPEG's metadata segments: EXIF (APP1), XMP (APP1), ICC (APP2 chunks,
// ICC.1 Annex B.4), and the EXIF thumbnail in IFD1 (SPEC P12).
import DaguerreCore

/// What a JPEG file says about itself, without decoding its pixels.
///
/// ```swift
/// let info = try JPEGFileMetadata(bytes: fileBytes)
/// print(info.metadata?.livePhotoContentIdentifier ?? "-", info.thumbnail?.count ?? 0)
/// ```
public struct JPEGFileMetadata: Sendable {
    public var width: Int
    public var height: Int
    public var components: Int
    /// The EXIF fields, with the Apple MakerNote's content identifier.
    public var metadata: PhotoMetadata?
    /// The IFD1 thumbnail JPEG.
    public var thumbnail: [UInt8]?
    public var xmp: XMPPacket?
    public var iccProfile: [UInt8]?
    /// Where the bytes after EOI start (a Motion Photo's video), if any follow it.
    public var trailerOffset: Int?
    /// The size of the file read.
    public var byteCount: Int

    /// Reads the file at `path` (errors name it).
    public init(path: String) throws(DaguerreError) {
        let bytes = try ImageSource.readFile(path)
        do { try self.init(bytes: bytes) } catch { throw error.at(path: path) }
    }

    public init(bytes: [UInt8]) throws(DaguerreError) {
        try self.init(bytes: bytes, scan: JPEGMarkerScanner(bytes))
    }

    /// From a marker scan the caller already made of `bytes`.
    package init(bytes: [UInt8], scan: JPEGMarkerScanner) throws(DaguerreError) {
        byteCount = bytes.count
        width = scan.width
        height = scan.height
        components = scan.components
        var iccChunks: [Int: [UInt8]] = [:]
        for s in scan.segments {
            let payload = Array(bytes[s.payload])
            if s.marker == 0xE1, payload.starts(with: JPEGSegment.exifIdentifier) {
                (metadata, thumbnail) = try EXIFCodec.read(block: payload, origin: 6)
            } else if s.marker == 0xE1, payload.starts(with: JPEGSegment.xmpIdentifier) {
                xmp = try XMPPacket(parsing: String(decoding: payload.dropFirst(JPEGSegment.xmpIdentifier.count), as: UTF8.self))
            } else if s.marker == 0xE2, payload.starts(with: JPEGSegment.iccIdentifier), payload.count > 14 {
                iccChunks[Int(payload[12])] = Array(payload.dropFirst(14))
            }
        }
        if !iccChunks.isEmpty { iccProfile = iccChunks.keys.sorted().flatMap { iccChunks[$0]! } }
        if let end = scan.endOfImage(in: bytes), end < bytes.count { trailerOffset = end }
    }

    /// `jpeg` with its EXIF, XMP and JFIF segments replaced by `segments` (placed right after
    /// SOI, as EXIF requires). Other segments (ICC, quantisation tables, ...) and the image
    /// data are kept byte for byte.
    public static func replacingMetadata(in jpeg: [UInt8], with segments: [JPEGSegment]) throws(DaguerreError) -> [UInt8] {
        try replacingMetadata(in: jpeg, with: segments, scan: JPEGMarkerScanner(jpeg))
    }

    /// The same from a scan the caller already made, keeping the bytes before `end` only (the
    /// image without a trailer) and reserving `extra` bytes for what the caller appends.
    package static func replacingMetadata(
        in jpeg: [UInt8], with segments: [JPEGSegment], scan: JPEGMarkerScanner,
        upTo end: Int? = nil, reserving extra: Int = 0
    ) throws(DaguerreError) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(jpeg.count + extra + segments.reduce(0) { $0 + $1.payload.count + 4 })
        for s in segments {
            guard s.payload.count <= JPEGSegment.maxPayload else {
                throw .tooLarge(what: "JPEG APP segment (bytes)", value: s.payload.count, limit: JPEGSegment.maxPayload)
            }
            out += s.fileBytes
        }
        for s in scan.segments {
            let payload = jpeg[s.payload]
            let replaced =
                (s.marker == 0xE0 && payload.starts(with: Array("JFIF".utf8)))
                || (s.marker == 0xE1
                    && (payload.starts(with: JPEGSegment.exifIdentifier) || payload.starts(with: JPEGSegment.xmpIdentifier)))
            if !replaced { out += jpeg[s.whole] }
        }
        out += jpeg[scan.scanStart..<max(scan.scanStart, min(end ?? jpeg.count, jpeg.count))]
        return out
    }
}
