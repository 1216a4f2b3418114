// What a HEIC file holds beside its image: the EXIF and XMP items and a thumbnail item.
import DaguerreCore

/// The items ``HEIFEncoder`` writes beside the primary image, part of ``EncoderOptions``.
///
/// The EXIF block is a TIFF structure as ``TIFFSerializer`` makes it (or as ``HEIFFile/exif``
/// reads it from another HEIC, its MakerNote intact); it is stored like an iPhone's, after
/// JPEG's `Exif\0\0` header. The picture is written upright, without `irot`/`imir` boxes, so
/// the block's Orientation tag is rewritten to 1 (turn the image first with the engine's
/// `oriented`): libheif 1.15's own orientation option writes two `ispe` boxes for one image,
/// a file its later versions refuse to decode.
///
/// ```swift
/// var options = EncoderOptions(format: .heic, width: w, height: h, rowFormat: .rgba8,
///                              iccProfile: try ColorSpace.displayP3.iccProfileData())
/// options.heif.exif = TIFFSerializer.file(EXIFCodec.directories(for: metadata), byteOrder: .bigEndian)
/// options.heif.xmp = packet
/// options.heif.thumbnailSize = 320
/// try ImageWriter.write(buffer, to: "IMG_0001.HEIC", options: options)
/// ```
public struct HEIFWriteOptions: Sendable, Equatable {
    /// The EXIF block: a TIFF structure from its byte-order mark ("MM" or "II"); a leading
    /// `Exif\0\0` is accepted and dropped. nil writes no Exif item.
    public var exif: [UInt8]?
    /// The XMP packet (an Adobe `mime` item of type application/rdf+xml). nil writes none.
    public var xmp: XMPPacket?
    /// The long side of a thumbnail item (HEVC, coded like the image; iPhones write 320 or
    /// 512), or nil for none. An image that already fits gets none.
    public var thumbnailSize: Int?

    public init(exif: [UInt8]? = nil, xmp: XMPPacket? = nil, thumbnailSize: Int? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.thumbnailSize = thumbnailSize
    }

    /// The largest EXIF block or XMP packet written (a HEIF item may be larger; a camera's are
    /// a few kilobytes, so a bigger one is a mistake, refused before anything is encoded).
    public static let maxMetadataBytes = 16 << 20
}
