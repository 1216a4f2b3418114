// One IFD to be written: fields, child IFDs (EXIF, GPS, SubIFDs) and the image data it points to.

/// An image file directory as it will be written.
///
/// Child directories (the EXIF IFD, the GPS IFD, DNG's SubIFDs) and the strips or tiles an IFD
/// points to are held here by value; ``TIFFSerializer`` lays them out and fills in the pointer
/// and offset fields, so a caller never computes a file offset.
///
/// ```swift
/// var exif = TIFFDirectory()
/// exif[.exposureTime] = .rationals([TIFFRational(1, 120)])
/// var ifd0 = TIFFDirectory()
/// ifd0[.make] = .ascii("Daguerre")
/// ifd0.children[.exifIFD] = [exif]
/// let bytes = TIFFSerializer.file([ifd0], byteOrder: .littleEndian)
/// ```
public struct TIFFDirectory: Sendable {
    /// Ordinary fields, by tag.
    public var fields: [TIFFTagID: TIFFValue] = [:]
    /// Pointer fields to child IFDs: `.exifIFD`, `.gpsIFD` (one each) or `.subIFDs` (any number).
    public var children: [TIFFTagID: [TIFFDirectory]] = [:]
    /// Blocks of data this IFD points to: strips, tiles, or the EXIF thumbnail.
    public var data: TIFFDataBlocks?

    public init() {}

    public subscript(tag: TIFFTagID) -> TIFFValue? {
        get { fields[tag] }
        set { fields[tag] = newValue }
    }
}

/// Strips, tiles or an embedded JPEG: chunks whose offsets and byte counts go in two fields.
///
/// ```swift
/// ifd.data = TIFFDataBlocks(offsetsTag: .tileOffsets, countsTag: .tileByteCounts, chunks: tiles)
/// ```
public struct TIFFDataBlocks: Sendable {
    public var offsetsTag: TIFFTagID
    public var countsTag: TIFFTagID
    public var chunks: [[UInt8]]
    public init(offsetsTag: TIFFTagID, countsTag: TIFFTagID, chunks: [[UInt8]]) {
        self.offsetsTag = offsetsTag
        self.countsTag = countsTag
        self.chunks = chunks
    }
    /// Strips (StripOffsets/StripByteCounts).
    public static func strips(_ chunks: [[UInt8]]) -> Self { Self(offsetsTag: .stripOffsets, countsTag: .stripByteCounts, chunks: chunks) }
    /// Tiles (TileOffsets/TileByteCounts).
    public static func tiles(_ chunks: [[UInt8]]) -> Self { Self(offsetsTag: .tileOffsets, countsTag: .tileByteCounts, chunks: chunks) }
    /// The EXIF thumbnail of IFD1 (JPEGInterchangeFormat/JPEGInterchangeFormatLength).
    public static func thumbnail(_ jpeg: [UInt8]) -> Self {
        Self(offsetsTag: .jpegInterchangeFormat, countsTag: .jpegInterchangeFormatLength, chunks: [jpeg])
    }
}
