// Turning capture sample buffers into files: the analogs of AVCapturePhotoOutput's
// jpegPhotoDataRepresentation and dngPhotoDataRepresentation class methods (SPEC P12, R5).
import DaguerreCore

/// File bytes for a captured photo, with metadata, ICC profile and thumbnail or preview.
///
/// The capture module's PhotoOutput forwards its class methods here, so that the seeds' code
/// reads the same:
///
/// ```swift
/// let jpeg = try PhotoDataRepresentation.jpegPhotoDataRepresentation(
///     forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
/// let dng = try PhotoDataRepresentation.dngPhotoDataRepresentation(
///     forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
/// ```
public enum PhotoDataRepresentation {
    /// The EXIF thumbnail box (EXIF 2.32 recommends 160×120).
    public static let thumbnailSize = (width: 160, height: 120)

    /// A JPEG file: the sample buffer's image with EXIF (and Apple MakerNote), an ICC profile
    /// for its colour space, and an IFD1 thumbnail made from the preview (SPEC P12, V4, L3, W5).
    public static func jpegPhotoDataRepresentation(
        forJPEGSampleBuffer photo: SampleBuffer,
        previewPhotoSampleBuffer preview: SampleBuffer?,
        xmp: XMPPacket? = nil
    ) throws(DaguerreError) -> [UInt8] {
        var metadata = photo.photoMetadata
        let space = photo.colorSpace ?? .sRGB
        metadata.colorSpace = space == .sRGB ? .sRGB : .uncalibrated
        var thumbnail: [UInt8]?
        if let preview, case .pixels(let p) = preview.content {
            let small = try PreviewScaler.fit(p, maxWidth: thumbnailSize.width, maxHeight: thumbnailSize.height)
            thumbnail = try JPEGDataEncoder.encode(small, quality: 0.8)
        }
        func segments() -> [JPEGSegment] {
            var s = [
                JPEGSegment.exif(TIFFSerializer.file(EXIFCodec.directories(for: metadata, thumbnail: thumbnail), byteOrder: .bigEndian))
            ]
            if let xmp { s.append(.xmp(xmp.serialized())) }
            return s
        }
        switch photo.content {
        case .pixels(let p):
            // Pixels are encoded once, with the metadata written by the encoder before the profile.
            let rgb = p.format == .rgb8 ? p : try PreviewScaler.fit(p, maxWidth: p.width, maxHeight: p.height)
            metadata.pixelWidth = rgb.width
            metadata.pixelHeight = rgb.height
            return try JPEGDataEncoder.encode(rgb, quality: 0.9, segments: segments(), iccProfile: try space.iccProfileData())
        case .jpeg(let jpeg):
            // A compressed image keeps its entropy-coded data; only the metadata segments change.
            let scan = try JPEGMarkerScanner(jpeg)
            metadata.pixelWidth = scan.width
            metadata.pixelHeight = scan.height
            var all = segments()
            // A JPEG without a profile gets one, so that Display P3 pixels are never read as sRGB.
            let hasProfile = scan.segments.contains { $0.marker == 0xE2 && jpeg[$0.payload].starts(with: JPEGSegment.iccIdentifier) }
            if !hasProfile { all += iccSegments(try space.iccProfileData()) }
            return try JPEGFileMetadata.replacingMetadata(in: jpeg, with: all, scan: scan)
        case .bayer:
            throw .invalidArgument(what: "a RAW sample buffer", problem: "use dngPhotoDataRepresentation for RAW photos")
        case .yCbCr420:
            throw .unsupported(
                feature: "JPEG data representations of Y'CbCr sample buffers",
                hint: "Convert the frame to RGB first (YCbCrConversion.makeRGBA), or capture JPEG or BGRA photos.")
        }
    }

    /// ICC.1 Annex B.4: a profile split over APP2 "ICC_PROFILE" chunks.
    static func iccSegments(_ icc: [UInt8]) -> [JPEGSegment] {
        let chunk = JPEGSegment.maxPayload - 14
        let n = (icc.count + chunk - 1) / chunk
        return (0..<n).map { i in
            JPEGSegment(
                marker: 0xE2,
                payload: JPEGSegment.iccIdentifier + [UInt8(i + 1), UInt8(n)] + icc[(i * chunk)..<min(icc.count, (i + 1) * chunk)])
        }
    }

    /// A DNG file: the mosaic as lossless-JPEG tiles, colour calibration, EXIF, and the preview
    /// in IFD0 (SPEC R1, R5).
    public static func dngPhotoDataRepresentation(
        forRawSampleBuffer raw: SampleBuffer,
        previewPhotoSampleBuffer preview: SampleBuffer?
    ) throws(DaguerreError) -> [UInt8] {
        guard case .bayer(let mosaic) = raw.content, let calibration = raw.rawCalibration else {
            throw .invalidArgument(
                what: "a non-RAW sample buffer",
                problem: "dngPhotoDataRepresentation needs a RAW (Bayer) sample buffer with its colour calibration")
        }
        var dng = DNGImage(
            raw: mosaic, uniqueCameraModel: [raw.photoMetadata.make, raw.photoMetadata.model].compactMap { $0 }.joined(separator: " "))
        if dng.uniqueCameraModel.isEmpty { dng.uniqueCameraModel = "Daguerre Camera" }
        dng.color = calibration
        dng.metadata = raw.photoMetadata
        if let preview, case .pixels(let p) = preview.content { dng.preview = p }
        return try DNGWriter.data(for: dng)
    }
}
