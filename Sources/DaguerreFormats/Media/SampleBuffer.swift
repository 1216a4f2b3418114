// The CMSampleBuffer analog for photos: what a capture output hands to its delegate.
import DaguerreCore

/// A photo as the capture pipeline delivers it: compressed JPEG bytes, processed pixels or a
/// RAW mosaic, with its capture metadata and timestamp (seed 501's photoSampleBuffer,
/// previewPhotoSampleBuffer and rawSampleBuffer).
///
/// ```swift
/// let photo = SampleBuffer(jpeg: bytes, metadata: exif, colorSpace: .displayP3)
/// let preview = SampleBuffer(pixels: smallBGRA)
/// let file = try PhotoDataRepresentation.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photo,
///                                                                   previewPhotoSampleBuffer: preview)
/// ```
public struct SampleBuffer: Sendable {
    public enum Content: Sendable {
        /// A complete JPEG stream.
        case jpeg([UInt8])
        /// Processed pixels (8-bit RGB, RGBA or BGRA).
        case pixels(PixelBuffer)
        /// A RAW Bayer mosaic with its colour calibration.
        case raw(BayerImage, RawColorCalibration)
    }
    public var content: Content
    public var metadata: PhotoMetadata
    /// The colour space of the pixels (sRGB or Display P3 for photos, SPEC W3).
    public var colorSpace: ColorSpace?
    /// Presentation time in seconds on the session clock.
    public var presentationTime: Double

    public init(jpeg: [UInt8], metadata: PhotoMetadata = PhotoMetadata(), colorSpace: ColorSpace? = .sRGB, presentationTime: Double = 0) {
        content = .jpeg(jpeg); self.metadata = metadata; self.colorSpace = colorSpace; self.presentationTime = presentationTime
    }
    public init(pixels: PixelBuffer, metadata: PhotoMetadata = PhotoMetadata(), presentationTime: Double = 0) {
        content = .pixels(pixels); self.metadata = metadata; colorSpace = pixels.colorSpace; self.presentationTime = presentationTime
    }
    public init(raw: BayerImage, calibration: RawColorCalibration, metadata: PhotoMetadata = PhotoMetadata(), presentationTime: Double = 0) {
        content = .raw(raw, calibration); self.metadata = metadata; colorSpace = nil; self.presentationTime = presentationTime
    }
}
