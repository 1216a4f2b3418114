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

    /// The byte ranges of the primary JPEG and the video in a Motion Photo (version 1, the
    /// older `GContainer:` naming, or the MicroVideo layout with GCamera:MicroVideoOffset).
    ///
    /// The XMP's length is not always right (Samsung's trailers follow the video, some writers
    /// count padding), so the bytes decide: the video is the MP4 whose `ftyp` box starts where
    /// the length says, or else the first one after the JPEG's end, and it runs as far as its
    /// top-level boxes do. When no MP4 is found, the XMP's range is returned as it is, for the
    /// caller to judge (a stripped video leaves it pointing into the photo).
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
        let stated = file.count - n
        if TopLevelBoxes.isFileType(file, at: stated) { return (0..<stated, stated..<file.count) }
        if let start = firstFileType(in: file, from: info.trailerOffset ?? file.count) {
            return (0..<start, start..<TopLevelBoxes.walk(file, from: start).end)
        }
        return (0..<stated, stated..<file.count)
    }

    /// The first `ftyp` box at or after `start`.
    private static func firstFileType(in file: [UInt8], from start: Int) -> Int? {
        var i = max(0, start)
        while i + 8 <= file.count {
            if file[i + 4] == UInt8(ascii: "f"), TopLevelBoxes.isFileType(file, at: i) { return i }
            i += 1
        }
        return nil
    }
}
