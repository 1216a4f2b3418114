// The colour space a photo's EXIF says its pixels are in (EXIF 2.32 ColorSpace, SPEC W5).

/// The EXIF ColorSpace field.
public enum EXIFColorSpace: UInt16, Sendable, Equatable {
    case sRGB = 1
    /// Any other space; the embedded ICC profile says which (Display P3 photos use this, W5).
    case uncalibrated = 0xFFFF
}
