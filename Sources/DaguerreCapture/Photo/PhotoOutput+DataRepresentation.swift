// The seeds' class methods that turn delivered sample buffers into files (SPEC P12, R5, V4):
// forwarded to the formats module's PhotoDataRepresentation, with a Y'CbCr preview converted to
// RGB first so it can become the JPEG's thumbnail or the DNG's preview.
import DaguerreCore
import DaguerreFormats
import DaguerreMovie

extension PhotoOutput {
    /// A JPEG file from a JPEG photo and its preview (the preview becomes the EXIF thumbnail).
    ///
    /// ```swift
    /// let data = try PhotoOutput.jpegPhotoDataRepresentation(
    ///     forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
    /// ```
    public static func jpegPhotoDataRepresentation(
        forJPEGSampleBuffer photoSampleBuffer: SampleBuffer, previewPhotoSampleBuffer: SampleBuffer?
    ) throws(DaguerreError) -> [UInt8] {
        try PhotoDataRepresentation.jpegPhotoDataRepresentation(
            forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: try rgbPreview(previewPhotoSampleBuffer))
    }

    /// A DNG file from a RAW photo and its preview (R5).
    ///
    /// ```swift
    /// let dng = try PhotoOutput.dngPhotoDataRepresentation(
    ///     forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
    /// ```
    public static func dngPhotoDataRepresentation(
        forRawSampleBuffer rawSampleBuffer: SampleBuffer, previewPhotoSampleBuffer: SampleBuffer?
    ) throws(DaguerreError) -> [UInt8] {
        try PhotoDataRepresentation.dngPhotoDataRepresentation(
            forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: try rgbPreview(previewPhotoSampleBuffer))
    }

    private static func rgbPreview(_ preview: SampleBuffer?) throws(DaguerreError) -> SampleBuffer? {
        guard let preview, case .yCbCr420(let frame) = preview.content else { return preview }
        var rgba = try YCbCrConversion.makeRGBA(from: frame)
        rgba.colorSpace = preview.colorSpace
        return SampleBuffer(pixels: rgba, photoMetadata: preview.photoMetadata, presentationTime: preview.presentationTime)
    }
}
