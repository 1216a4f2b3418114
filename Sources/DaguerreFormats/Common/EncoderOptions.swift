import DaguerreCore

/// What an encoder is asked to write.
///
/// ```swift
/// let opts = EncoderOptions(format: .jpeg, width: 4032, height: 3024, rowFormat: .rgb8,
///                           iccProfile: try ColorSpace.displayP3.iccProfileData(), quality: 0.9)
/// let enc = try ImageWriter.create(path: "out.jpg", options: opts)
/// ```
public struct EncoderOptions: Sendable {
    public enum TIFFCompression: String, Sendable { case none, lzw, deflate }

    public var format: ImageFileFormat
    public var width: Int
    public var height: Int
    /// RGB8 or L8 for JPEG; RGB(A)8/16 or L(A)8/16 for PNG; RGB(A) 8/16/h/f or L 8/16 for TIFF;
    /// RGB(A)8 or RGB(A)16 for HEIC (16-bit rows are coded with 10 bits).
    public var rowFormat: PixelFormat
    /// The profile to embed (JPEG APP2, PNG iCCP, TIFF tag 34675, HEIC `colr` `prof`). nil writes none.
    public var iccProfile: [UInt8]?
    /// For PNG: write an sRGB chunk instead of iCCP when the space is sRGB.
    public var isSRGB: Bool
    /// JPEG and HEIC quality in 0...1 (Core Image's kCGImageDestinationLossyCompressionQuality).
    public var quality: Double
    /// JPEG and HEIC chroma subsampling 4:2:0 (default) or 4:4:4 when false.
    public var chromaSubsampling: Bool
    public var tiffCompression: TIFFCompression
    /// JPEG only: APPn segments written after SOI, before the ICC profile (EXIF, XMP).
    public var jpegSegments: [JPEGSegment] = []
    /// HEIC only: the EXIF, XMP and thumbnail items and the orientation.
    public var heif = HEIFWriteOptions()
    /// Rows given to TIFF/PNG carry straight (unassociated) alpha.
    public var limits: Limits

    public init(
        format: ImageFileFormat, width: Int, height: Int, rowFormat: PixelFormat, iccProfile: [UInt8]? = nil,
        isSRGB: Bool = false, quality: Double = 0.9, chromaSubsampling: Bool = true,
        tiffCompression: TIFFCompression = .lzw, limits: Limits = .default
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.rowFormat = rowFormat
        self.iccProfile = iccProfile
        self.isSRGB = isSRGB
        self.quality = quality
        self.chromaSubsampling = chromaSubsampling
        self.tiffCompression = tiffCompression
        self.limits = limits
    }
}
