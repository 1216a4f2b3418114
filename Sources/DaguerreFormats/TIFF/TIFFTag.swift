// TIFF tag numbers and values used by the libtiff-based reader and writer (TIFF 6.0, Adobe ICC tag).

/// The TIFF tags DaguerreFormats reads and writes, by number (the names of libtiff's TIFFTAG_*
/// macros, which Swift imports only as untyped constants).
///
/// ```swift
/// dag_tiff_get_u32(handle, TIFFTag.imageWidth, 0, &width)
/// ```
enum TIFFTag {
    static let imageWidth: UInt32 = 256
    static let imageLength: UInt32 = 257
    static let bitsPerSample: UInt32 = 258
    static let compression: UInt32 = 259
    static let photometric: UInt32 = 262
    static let orientation: UInt32 = 274
    static let xResolution: UInt32 = 282
    static let yResolution: UInt32 = 283
    static let resolutionUnit: UInt32 = 296
    static let samplesPerPixel: UInt32 = 277
    static let rowsPerStrip: UInt32 = 278
    static let planarConfig: UInt32 = 284
    static let predictor: UInt32 = 317
    static let tileWidth: UInt32 = 322
    static let tileLength: UInt32 = 323
    static let extraSamples: UInt32 = 338
    static let sampleFormat: UInt32 = 339

    // Values.
    static let compressionNone: UInt16 = 1
    static let compressionLZW: UInt16 = 5
    static let compressionAdobeDeflate: UInt16 = 8
    static let photometricMinIsWhite: UInt16 = 0
    static let photometricMinIsBlack: UInt16 = 1
    static let photometricRGB: UInt16 = 2
    static let planarContiguous: UInt16 = 1
    static let sampleFormatUInt: UInt16 = 1
    static let sampleFormatInt: UInt16 = 2
    static let sampleFormatIEEEFP: UInt16 = 3
    static let extraUnspecified: UInt16 = 0
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
