// Everything one photo request asks for, in one value (SPEC P3–P5): the seeds'
// AVCapturePhotoSettings, with the prefix dropped.
import DaguerreCore
import DaguerreMovie
import Foundation
import Synchronization

/// The keys of a photo's format dictionary (the seeds' `AVVideoCodecKey` and
/// `kCVPixelBufferPixelFormatTypeKey`). A format names a codec or a pixel format, not both.
public enum PhotoFormatKey: Sendable, Hashable {
    case videoCodec
    case pixelFormatType
}

/// A value in a photo's format dictionary: a codec (`.jpeg`) or an uncompressed pixel format
/// (`.bgra`, `.yuv420FullRange`, `.yuv420VideoRange`).
///
/// ```swift
/// let settings = PhotoSettings(format: [.pixelFormatType: .bgra])     // the seeds' BGRA photo
/// ```
public enum PhotoFormatValue: Sendable, Hashable, CustomStringConvertible {
    case codec(PhotoCodec)
    case pixelFormat(PixelFormatType)

    public static let jpeg = PhotoFormatValue.codec(.jpeg)
    public static let bgra = PhotoFormatValue.pixelFormat(.bgra)
    public static let yuv420FullRange = PhotoFormatValue.pixelFormat(.yuv420FullRange)
    public static let yuv420VideoRange = PhotoFormatValue.pixelFormat(.yuv420VideoRange)

    public var description: String {
        switch self {
        case .codec(let c): c.rawValue
        case .pixelFormat(let p): p.fourCC
        }
    }
}

/// The codecs a photo can be compressed with (`AVVideoCodecJPEG`).
public enum PhotoCodec: String, Sendable, Hashable, CaseIterable {
    case jpeg
}

/// A photo's flash (the seeds' `AVCaptureFlashMode`): `.auto` fires when the scene is dark
/// enough, as the scene monitor and the pre-flash decide.
public enum FlashMode: String, Sendable, Hashable, CaseIterable {
    case off, on, auto
}

/// The preview that comes with a photo (SPEC V1–V3): a pixel format, and optionally a box the
/// preview is fitted into with its aspect ratio kept.
///
/// ```swift
/// settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: .bgra, width: 160, height: 160)
/// ```
public struct PreviewPhotoFormat: Sendable, Hashable {
    public var pixelFormatType: PixelFormatType
    /// The box, or nil for the output's default (the largest side 320 pixels).
    public var width: Int?
    public var height: Int?
    public init(pixelFormatType: PixelFormatType, width: Int? = nil, height: Int? = nil) {
        self.pixelFormatType = pixelFormatType
        self.width = width
        self.height = height
    }
}

/// The settings of one photo request (SPEC P3–P5).
///
/// Atomic: every per-photo option is here, none on the output. Unique: each instance gets a new
/// 64-bit ``uniqueID``, and a settings value may be used for one capture only (a copy keeps the
/// ID, so capturing a copy again is refused too; ``init(from:)`` makes a fresh one). The
/// defaults are the seeds': a JPEG, automatic still-image stabilization on, flash off.
///
/// ```swift
/// var settings = PhotoSettings()
/// settings.isHighResolutionPhotoEnabled = true
/// photoOutput.capturePhoto(with: settings, delegate: self)
///
/// let raw = PhotoSettings(rawPixelFormatType: photoOutput.availableRawPhotoPixelFormatTypes[0],
///                         processedFormat: [.videoCodec: .jpeg])
/// ```
public struct PhotoSettings: Sendable {
    /// Unique among all settings made by this process.
    public private(set) var uniqueID: Int64
    /// The processed photo's format (a codec or a pixel format), or nil for RAW only.
    public let format: [PhotoFormatKey: PhotoFormatValue]?
    /// The RAW format ('rgg4'…), or nil for no RAW photo.
    public let rawPixelFormatType: PixelFormatType?
    public var flashMode: FlashMode = .off
    public var isAutoStillImageStabilizationEnabled: Bool
    public var isHighResolutionPhotoEnabled = false
    /// The preview delivered with each image, or nil for none.
    public var previewPhotoFormat: PreviewPhotoFormat?
    /// Where the Live Photo movie goes, or nil for a still photo (L6).
    public var livePhotoMovieFileURL: URL?
    /// Items written into the Live Photo movie (L6); the content identifier is the output's.
    public var livePhotoMovieMetadata: [MetadataItem] = []
    /// Beyond the seeds: where to write the Live Photo as one Google Motion Photo 1.0 file (the
    /// JPEG with the movie as an MP4 after it, `…MP.jpg`), for Android and the photo libraries
    /// that read Motion Photos; needs a JPEG photo. With ``livePhotoMovieFileURL`` it is written
    /// beside the pair; alone, it asks for a Live Photo whose movie goes to a temporary file,
    /// removed once the Motion Photo is written, and the movie callbacks name the Motion Photo.
    /// Either way it is written before the movie's last callback.
    ///
    /// ```swift
    /// var settings = PhotoSettings()
    /// settings.motionPhotoFileURL = URL(fileURLWithPath: "IMG_0001.MP.jpg")  // instead of a pair
    /// ```
    public var motionPhotoFileURL: URL?

    /// A Live Photo is asked for: a movie, a Motion Photo, or both.
    var isLivePhoto: Bool { livePhotoMovieFileURL != nil || motionPhotoFileURL != nil }

    private static let counter = Atomic<Int64>(0)
    private static func nextID() -> Int64 { counter.add(1, ordering: .relaxed).newValue }

    /// A JPEG photo with automatic still-image stabilization (P4).
    public init() {
        self.init(format: [.videoCodec: .jpeg])
    }

    /// A processed photo in `format`: `[.videoCodec: .jpeg]` or `[.pixelFormatType: .bgra]`.
    public init(format: [PhotoFormatKey: PhotoFormatValue]) {
        uniqueID = Self.nextID()
        self.format = format
        rawPixelFormatType = nil
        isAutoStillImageStabilizationEnabled = true
    }

    /// A RAW photo in `rawPixelFormatType` (one of the output's
    /// `availableRawPhotoPixelFormatTypes`), and a processed one in `processedFormat` if given
    /// (R3). RAW settings have still-image stabilization off.
    public init(rawPixelFormatType: PixelFormatType, processedFormat: [PhotoFormatKey: PhotoFormatValue]? = nil) {
        uniqueID = Self.nextID()
        format = processedFormat
        self.rawPixelFormatType = rawPixelFormatType
        isAutoStillImageStabilizationEnabled = false
    }

    /// The same settings with a new ``uniqueID``, to capture again.
    public init(from settings: PhotoSettings) {
        self = settings
        uniqueID = Self.nextID()
    }

    /// The processed format as a value, when the dictionary holds exactly one of codec and pixel format.
    var processedFormat: PhotoFormatValue? {
        guard let format, format.count == 1 else { return nil }
        return format[.videoCodec] ?? format[.pixelFormatType]
    }

    /// The preview formats the output can deliver for these settings, best first (V2): the
    /// ones that need the fewest conversions from the photo's own pixels.
    public var availablePreviewPhotoPixelFormatTypes: [PixelFormatType] {
        switch processedFormat {
        case .pixelFormat(.yuv420FullRange)?, .pixelFormat(.yuv420VideoRange)?: [.yuv420FullRange, .yuv420VideoRange, .bgra]
        default: [.bgra, .yuv420FullRange, .yuv420VideoRange]
        }
    }
}
