// The capture facts a photo file carries: EXIF 2.32 fields, GPS, and the Live Photo identifier.
import Foundation

/// What a camera knows about a photo, independent of the file format that will carry it.
///
/// JPEG files carry it as EXIF (APP1) with an Apple MakerNote (SPEC P12, L3); DNG files carry
/// it in IFD0 and an EXIF sub-IFD (R1). The Live Photo content identifier goes in the MakerNote
/// (tag 0x0011, which exiftool calls MediaGroupUUID) so that the JPEG pairs with its movie (L3).
///
/// ```swift
/// var m = PhotoMetadata(make: "Daguerre", model: "Virtual Back Camera")
/// m.exposureTime = 1.0 / 120; m.fNumber = 1.8; m.iso = 100
/// m.dateTimeOriginal = Date(); m.timeZoneOffset = 3600
/// m.livePhotoContentIdentifier = UUID().uuidString
/// ```
public struct PhotoMetadata: Sendable, Equatable {
    public var make: String?
    public var model: String?
    public var software: String?
    /// When the shutter fired. Written as local time at ``timeZoneOffset`` with OffsetTimeOriginal.
    public var dateTimeOriginal: Date?
    /// Seconds east of UTC where the photo was taken (0 when unknown).
    public var timeZoneOffset: Int = 0
    /// Seconds.
    public var exposureTime: Double?
    public var fNumber: Double?
    /// ISO speed (EXIF PhotographicSensitivity).
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?
    public var focalLengthIn35mmFilm: Int?
    public var exposureBias: Double?
    /// The EXIF Flash bit field (bit 0: fired; bits 3–4: mode).
    public var flash: UInt16?
    /// EXIF/TIFF orientation 1...8 (1 = upright).
    public var orientation: Int = 1
    /// EXIF ColorSpace: sRGB, or uncalibrated when the file holds another space (Display P3).
    public var colorSpace: EXIFColorSpace = .sRGB
    public var lensMake: String?
    public var lensModel: String?
    public var gps: GPSLocation?
    /// Pixel dimensions of the main image (EXIF PixelXDimension/PixelYDimension).
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// The Live Photo pairing identifier (Apple MakerNote 0x0011; the movie's ContentIdentifier).
    public var livePhotoContentIdentifier: String?
    /// Whether an Apple MakerNote is written even without a content identifier, as the
    /// camera's own photos carry one (a content identifier always brings one).
    public var writesAppleMakerNote = false

    public init(make: String? = nil, model: String? = nil, software: String? = nil) {
        self.make = make
        self.model = model
        self.software = software
    }

    /// EXIF Flash values for the common cases.
    public enum FlashValue {
        public static let didNotFire: UInt16 = 0x10  // off, compulsory suppression
        public static let fired: UInt16 = 0x09  // fired, compulsory
        public static let autoDidNotFire: UInt16 = 0x18
        public static let autoFired: UInt16 = 0x19
    }
}
