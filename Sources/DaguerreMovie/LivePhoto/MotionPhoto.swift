// Google Motion Photo 1.0: a JPEG whose XMP declares a Container directory, with an MP4
// appended after its EOI (SPEC L6). Written by hand: it is a byte layout, not a codec.
import DaguerreCore
import DaguerreFormats

/// Builds and splits Motion Photos, for people moving Live Photos to Android.
///
/// The primary JPEG keeps its EXIF, ICC and pixels; its XMP gains GCamera:MotionPhoto = 1,
/// MotionPhotoVersion = 1, MotionPhotoPresentationTimestampUs (the still's time in the video)
/// and a Container:Directory listing the primary image and the video with its length. The MP4
/// follows the JPEG's EOI byte for byte.
///
/// ```swift
/// let mp = try MotionPhoto.make(primary: stillJPEG, video: mp4, presentationTimestampUs: 1_500_000)
/// try AtomicFile.write(mp, to: "IMG_0001.MP.jpg")
/// let parts = try MotionPhoto.split(mp)      // (primary, video) ranges
/// ```
public enum MotionPhoto {
    /// The file name ending Google's readers look for.
    public static let fileSuffix = ".MP.jpg"

    public static func make(primary: [UInt8], video: [UInt8], presentationTimestampUs: Int64) throws(DaguerreError) -> [UInt8] {
        guard video.count >= 8, Array(video[4..<8]) == Array("ftyp".utf8) else {
            throw .invalidArgument(what: "Motion Photo video", problem: "must be an MP4 file (it has no ftyp box first)")
        }
        let scan = try JPEGMarkerScanner(primary)
        let info = try JPEGFileMetadata(bytes: primary, scan: scan)
        var xmp = info.xmp ?? XMPPacket()
        xmp.set("MotionPhoto", "1", in: .googleCamera)
        xmp.set("MotionPhotoVersion", "1", in: .googleCamera)
        xmp.set("MotionPhotoPresentationTimestampUs", String(presentationTimestampUs), in: .googleCamera)
        xmp.containerDirectory = [
            .init(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0),
            .init(mime: "video/mp4", semantic: "MotionPhoto", length: video.count, padding: 0),
        ]
        // Keep the EXIF segment as it is; replace only the XMP.
        var segments: [JPEGSegment] = []
        for s in scan.segments where s.marker == 0xE1 && primary[s.payload].starts(with: JPEGSegment.exifIdentifier) {
            segments.append(JPEGSegment(marker: 0xE1, payload: Array(primary[s.payload])))
        }
        segments.append(.xmp(xmp.serialized()))
        // Anything after the primary's EOI (an older trailer) is dropped before the video goes on.
        var out = try JPEGFileMetadata.replacingMetadata(
            in: primary, with: segments, scan: scan, upTo: info.trailerOffset,
            reserving: video.count)
        out += video
        return out
    }

    /// The byte ranges of the primary JPEG and the video in a Motion Photo (version 1, or the
    /// older MicroVideo layout with GCamera:MicroVideoOffset).
    public static func split(_ file: [UInt8]) throws(DaguerreError) -> (primary: Range<Int>, video: Range<Int>) {
        let info = try JPEGFileMetadata(bytes: file)
        guard let xmp = info.xmp else { throw .corruptData(format: "Motion Photo", detail: "the JPEG has no XMP", path: nil) }
        var length: Int?
        if let item = xmp.containerDirectory?.first(where: { $0.semantic == "MotionPhoto" }) {
            length = item.length
        } else if let offset = xmp.value("MicroVideoOffset", in: .googleCamera).flatMap({ Int($0) }) {
            length = offset
        }
        guard let n = length, n > 0, n < file.count else {
            throw .corruptData(format: "Motion Photo", detail: "the XMP names no video length within the file", path: nil)
        }
        return (0..<(file.count - n), (file.count - n)..<file.count)
    }
}
