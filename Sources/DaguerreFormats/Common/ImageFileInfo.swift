import DaguerreCore

/// What a reader learned from a file's header, before decoding any pixel.
///
/// ```swift
/// let decoder = try ImageReader.open(path: "in.jpg")
/// decoder.info.width, decoder.info.pixelFormat, decoder.info.colorSpace
/// ```
public struct ImageFileInfo: Sendable, Hashable {
    public var format: ImageFileFormat
    public var width: Int
    public var height: Int
    /// The layout rows are decoded into: RGB8/L8 for JPEG; RGB(A)8/16 or L(A)8/16 for PNG;
    /// any integer or float layout for TIFF.
    public var pixelFormat: PixelFormat
    /// Straight (PNG, unassociated TIFF) or premultiplied (associated TIFF) alpha.
    public var alpha: PixelBuffer.AlphaMode
    /// The embedded ICC profile, verbatim.
    public var iccProfile: [UInt8]?
    /// The colour space: from the ICC profile when there is one, else the format's default
    /// (sRGB for RGB, the sRGB curve for gray; PNG's sRGB chunk; TIFF with no profile: sRGB).
    public var colorSpace: ColorSpace
    /// True when rows can be read in any order at little cost (TIFF strips and tiles).
    public var randomAccess: Bool

    /// The colour space an embedded profile describes, or the format default (sRGB, or the
    /// sRGB-curve gray) when it is unusable or does not fit the image (an RGB profile in a
    /// grayscale file). Shared by the JPEG, PNG and TIFF readers.
    static func colorSpace(fromICC bytes: [UInt8], gray: Bool) -> ColorSpace {
        let fallback: ColorSpace = gray ? .genericGray : .sRGB
        guard let space = try? ICCProfile.colorSpace(from: bytes) else { return fallback }
        switch space.model {
        case .gray: return gray ? space : fallback
        case .rgb, .icc: return gray ? fallback : space
        }
    }

    public init(
        format: ImageFileFormat, width: Int, height: Int, pixelFormat: PixelFormat,
        alpha: PixelBuffer.AlphaMode, iccProfile: [UInt8]?, colorSpace: ColorSpace, randomAccess: Bool
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.alpha = alpha
        self.iccProfile = iccProfile
        self.colorSpace = colorSpace
        self.randomAccess = randomAccess
    }
}
