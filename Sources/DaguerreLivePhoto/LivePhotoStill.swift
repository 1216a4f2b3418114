// The still of a Live Photo opened for editing (SPEC E1, E2): a JPEG (iOS 10's layout, Google
// Motion Photos) or a HEIC (iPhones since iOS 11, Samsung's and Google's HEIC motion photos),
// with its metadata, its XMP and its pixels upright. HEIC goes through libheif (`HEIFFile`).
import DaguerreCore
import DaguerreFormats
import DaguerreImage

/// A Live Photo's still: the stored bytes, what its metadata says and the upright image.
struct LivePhotoStill: Sendable {
    /// The file format the still is stored in.
    enum Format: String, Sendable {
        case jpeg = "JPEG"
        case heic = "HEIC"
    }

    let format: Format
    /// The still's bytes as stored (for a HEIC motion photo, the whole file).
    let bytes: [UInt8]
    /// EXIF and the Apple MakerNote (the pair's content identifier), when the still has them.
    let metadata: PhotoMetadata?
    let xmp: XMPPacket?
    /// The EXIF orientation the file records (1 when none). A JPEG's pixels are turned by it;
    /// a HEIC's by its `irot`/`imir` boxes, which libheif applies (EXIF is informative there).
    let orientation: Int
    /// The still upright, its extent at the origin.
    let image: Image
    let colorSpace: ColorSpace
    /// A HEIC motion photo's video, as found by walking the file's boxes (nil for a JPEG).
    let heifMotionPhotoVideo: HEIFMotionPhotoVideo?

    /// Opens `bytes` as a JPEG or a HEIC; anything else is refused, naming what it is not.
    static func open(_ bytes: [UInt8], path: String) throws(DaguerreError) -> LivePhotoStill {
        if bytes.starts(with: [0xFF, 0xD8]) {
            let info = try JPEGFileMetadata(bytes: bytes)
            let orientation = exifOrientation(info.metadata)
            let image = try Image(data: bytes).oriented(orientation)
            return LivePhotoStill(
                format: .jpeg, bytes: bytes, metadata: info.metadata, xmp: info.xmp, orientation: orientation, image: image,
                colorSpace: image.colorSpace ?? .sRGB, heifMotionPhotoVideo: nil)
        }
        if HEIFFile.isHEIF(head: Array(bytes.prefix(64))) {
            let file = try HEIFFile(bytes: bytes)
            let buffer = try file.decodePrimaryImage()
            let space = file.colorSpace ?? .sRGB
            return LivePhotoStill(
                format: .heic, bytes: bytes, metadata: file.metadata, xmp: file.xmp,
                orientation: exifOrientation(file.metadata), image: Image(buffer: buffer, colorSpace: space),
                colorSpace: space, heifMotionPhotoVideo: file.motionPhotoVideo)
        }
        throw .corruptData(format: "Live Photo still", detail: "it is neither a JPEG nor a HEIC", path: path)
    }

    /// The still upright for a render at `scale` (≤ 1) of its full size, and that image's own
    /// scale: a JPEG rendered at half size or less is decoded smaller by libjpeg (1/2, 1/4 or
    /// 1/8, the smallest that is still at least `scale`), at a fraction of the full decode's
    /// cost; otherwise the full-size image at scale 1.
    func image(forScale scale: Double) throws(DaguerreError) -> (image: Image, scale: Double) {
        guard format == .jpeg, scale <= 0.5, let reduction = [8, 4, 2].first(where: { 1 / Double($0) >= scale }) else {
            return (image, 1)
        }
        let buffer = try ImageReader.readAll(JPEGDecoder(data: bytes, reducedBy: reduction))
        let small = try Image(buffer: buffer, colorSpace: buffer.colorSpace ?? colorSpace).oriented(orientation)
        return (small, small.extent.width / image.extent.width)
    }

    /// The metadata's EXIF orientation when it is a valid one (1–8), else 1.
    private static func exifOrientation(_ metadata: PhotoMetadata?) -> Int {
        let recorded = metadata?.orientation ?? 1
        return (1...8).contains(recorded) ? recorded : 1
    }
}
