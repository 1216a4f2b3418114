// TIFF tag numbers and values used by the libtiff-based reader and writer (TIFF 6.0, Adobe ICC tag).

/// The TIFF tags DaguerreFormats reads and writes, by number (the names of libtiff's TIFFTAG_*
/// macros, which Swift imports only as untyped constants).
///
/// ```swift
/// dag_tiff_get_u32(handle, TIFFTag.imageWidth, 0, &width)
/// ```
enum TIFFTag {
    // Numbers from the one tag table (TIFFTagID), as libtiff's UInt32.
    static let imageWidth = UInt32(TIFFTagID.imageWidth.rawValue)
    static let imageLength = UInt32(TIFFTagID.imageLength.rawValue)
    static let bitsPerSample = UInt32(TIFFTagID.bitsPerSample.rawValue)
    static let compression = UInt32(TIFFTagID.compression.rawValue)
    static let photometric = UInt32(TIFFTagID.photometricInterpretation.rawValue)
    static let orientation = UInt32(TIFFTagID.orientation.rawValue)
    static let xResolution = UInt32(TIFFTagID.xResolution.rawValue)
    static let yResolution = UInt32(TIFFTagID.yResolution.rawValue)
    static let resolutionUnit = UInt32(TIFFTagID.resolutionUnit.rawValue)
    static let samplesPerPixel = UInt32(TIFFTagID.samplesPerPixel.rawValue)
    static let rowsPerStrip = UInt32(TIFFTagID.rowsPerStrip.rawValue)
    static let planarConfig = UInt32(TIFFTagID.planarConfiguration.rawValue)
    static let predictor = UInt32(TIFFTagID.predictor.rawValue)
    static let tileWidth = UInt32(TIFFTagID.tileWidth.rawValue)
    static let tileLength = UInt32(TIFFTagID.tileLength.rawValue)
    static let sampleFormat = UInt32(TIFFTagID.sampleFormat.rawValue)

    // Values.
    static let compressionNone: UInt16 = 1
    static let compressionLZW: UInt16 = 5
    static let compressionAdobeDeflate: UInt16 = 8
    static let photometricMinIsBlack: UInt16 = 1
    static let photometricRGB: UInt16 = 2
    static let planarContiguous: UInt16 = 1
    static let sampleFormatUInt: UInt16 = 1
    static let sampleFormatInt: UInt16 = 2
    static let sampleFormatIEEEFP: UInt16 = 3
    static let extraAssociatedAlpha: UInt16 = 1
    static let extraUnassociatedAlpha: UInt16 = 2

    /// Why a photometric interpretation is refused, with what to do about it.
    static func photometricName(_ p: UInt16) -> String {
        switch p {
        case 0: return "MinIsWhite (inverted gray or bilevel)"
        case 3: return "palette colour"
        case 4: return "transparency mask"
        case 5: return "CMYK (separated)"
        case 6: return "YCbCr"
        case 8, 9, 10: return "CIE L*a*b*"
        case 32803: return "CFA (a raw Bayer mosaic, as in DNG)"
        case 34892: return "LinearRaw (DNG)"
        default: return "photometric interpretation \(p)"
        }
    }
}
